// The seat pod: RJ45 breakout at the back, the gun's 6P6C jack and the badge's 3.5 mm
// jack at the front, ears to tape or clamp it at the table edge.
include <common.scad>
difference() {
    union() {
        cube(pod);
        for (x = [-12, pod[0]]) translate([x, pod[1] / 2 - 10, 0]) cube([12, 20, 3]);
    }
    translate([wall, wall, wall]) cube([pod[0] - 2 * wall, pod[1] - 2 * wall, pod[2]]);
    // RJ45 (back wall): 16 x 14 opening
    translate([pod[0] / 2 - 8, pod[1] - wall - 1, wall + 2]) cube([16, wall + 2, 14]);
    // 6P6C (front wall): 14 x 12
    translate([15, -1, wall + 2]) cube([14, wall + 2, 12]);
    // 3.5 mm jack (front wall): 6.2 mm hole
    translate([pod[0] - 20, -1, wall + 9]) rotate([-90, 0, 0]) cylinder(d = 6.2, h = wall + 2);
    // ear holes
    for (x = [-6, pod[0] + 6]) translate([x, pod[1] / 2, -1]) cylinder(d = 3.4, h = 5);
}
if (show_dims) {
    dim([0, 0], [pod[0], 0], str(pod[0], " x ", pod[2], " high"), side = -10);
    dim([pod[0], 0], [pod[0], pod[1]], str(pod[1]), side = -16);
    dim([15, 0], [29, 0], "6P6C 14 x 12", side = -4, z = pod[2]);
    dim([pod[0] / 2 - 8, pod[1]], [pod[0] / 2 + 8, pod[1]], "RJ45 16 x 14", side = 4, z = pod[2]);
    dim([-12, pod[1] / 2 + 10], [pod[0] + 12, pod[1] / 2 + 10],
        str("ears ", pod[0] + 24, ", holes 3.4"), side = 4);
}
