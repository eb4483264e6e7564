// Glued under the standee: holds the magnet that closes the reed switch in the pod lid.
// Nothing is wired to the standee, so no cable can pull it over.
include <common.scad>
h = 7;
difference() {
    cube([foot[0], foot[1], h]);
    // magnet pocket from below: its centre over one end of the reed's glass, `magnet_over`
    // from the foot's centre, which stands over the reed's middle (common.scad)
    translate([foot[0] / 2 + magnet_over, foot[1] / 2, -0.01])
        cylinder(d = magnet_d, h = magnet_h);
    // slot for the standee's card (2 mm) on top
    translate([2, foot[1] / 2 - 1, h - 4]) cube([foot[0] - 4, 2, 5]);
}
if (show_dims) {
    dim([0, 0], [foot[0], 0], str(foot[0]), side = -8);
    dim([foot[0], 0], [foot[0], foot[1]], str(foot[1]), side = -8);
    dim([foot[0] / 2, foot[1]], [foot[0] / 2 + magnet_over, foot[1]],
        str("magnet +", magnet_over), side = 6, z = h);
    dim([2, foot[1] / 2 + 1], [foot[0] - 2, foot[1] / 2 + 1], str("card slot ", foot[0] - 4,
        " x 2"), side = 3, z = h);
}
