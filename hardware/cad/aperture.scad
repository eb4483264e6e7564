// The receiver's aperture tube: cut-off half-angle atan(5 / 28.5) = 10 deg.
include <common.scad>
aperture_tube();
if (show_dims) aperture_dims();
