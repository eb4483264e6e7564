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
