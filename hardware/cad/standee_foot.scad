// Glued under the standee: holds the magnet that closes the reed switch in the pod lid.
// Nothing is wired to the standee, so no cable can pull it over.
include <common.scad>
h = 7;
difference() {
    cube([foot[0], foot[1], h]);
    // magnet pocket from below, off-centre over the reed's contact end
    translate([foot[0] / 2 + 3, foot[1] / 2, -0.01]) cylinder(d = magnet_d, h = magnet_h);
    // slot for the standee's card (2 mm) on top
    translate([2, foot[1] / 2 - 1, h - 4]) cube([foot[0] - 4, 2, 5]);
}
