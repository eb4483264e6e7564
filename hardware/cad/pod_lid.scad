// The pod's lid is the standee base: a recess for the standee's foot with the reed switch
// in a channel `floor_over_reed` under its floor, its middle under the foot's centre, so
// the foot's magnet sits over one end of the glass (common.scad).
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
    // reed channel under the recess floor, its middle under the foot's centre
    translate([pod[0] / 2, pod[1] / 2, t - 3 - floor_over_reed - reed_d / 2]) reed_channel();
}
if (show_dims) {
    dim([0, 0], [pod[0], 0], str(pod[0]), side = -8);
    dim([pod[0], 0], [pod[0], pod[1]], str(pod[1]), side = -8);
    dim([(pod[0] - foot[0]) / 2 - clear, pod[1] / 2 + foot[1] / 2 + clear],
        [(pod[0] + foot[0]) / 2 + clear, pod[1] / 2 + foot[1] / 2 + clear],
        str("recess ", foot[0] + 2 * clear, " x ", foot[1] + 2 * clear, " x 3"), side = 4, z = t);
    dim([pod[0] / 2 - reed_l / 2, pod[1] / 2 - 4], [pod[0] / 2 + reed_l / 2, pod[1] / 2 - 4],
        str("reed ", reed_l, " x ", reed_d, ", ", floor_over_reed, " under the floor"),
        side = -4, z = t);
}
