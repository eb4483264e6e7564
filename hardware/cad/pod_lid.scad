// The pod's lid is the standee base: a recess for the standee's foot with the reed switch
// in a channel 1.2 mm under its floor, off-centre under the magnet's edge.
include <common.scad>
t = 6;
difference() {
    union() {
        cube([pod[0], pod[1], t]);
        translate([wall + clear, wall + clear, -3])
            difference() {
                cube([pod[0] - 2 * (wall + clear), pod[1] - 2 * (wall + clear), 3]);
                translate([wall, wall, -1]) cube([pod[0] - 4 * wall - 2 * clear,
                                                   pod[1] - 4 * wall - 2 * clear, 5]);
            }
    }
    // the foot's recess, 3 mm deep
    translate([(pod[0] - foot[0] - 2 * clear) / 2, (pod[1] - foot[1] - 2 * clear) / 2, t - 3])
        cube([foot[0] + 2 * clear, foot[1] + 2 * clear, 4]);
    // reed channel under the recess floor, its end under the magnet
    translate([pod[0] / 2 + 3, pod[1] / 2, t - 3 - 1.2 - reed_d / 2]) reed_channel();
}
