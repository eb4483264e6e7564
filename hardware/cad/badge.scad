// The worn target: three 5 mm IR LEDs fanned at -45, 0, +45 deg in a half-round front,
// a slot at the back for a badge clip, a hole for the cord.
include <common.scad>
r = 16; h = 14; fan = 45;
difference() {
    union() {
        intersection() {
            cylinder(r = r, h = h);
            translate([-r, 0, 0]) cube([2 * r, r, h]);
        }
        translate([-r, -6, 0]) cube([2 * r, 6, h]);
    }
    // cavity for the resistors and wiring
    translate([-r + wall, -6 + wall, wall]) cube([2 * r - 2 * wall, 6 - wall + 4, h]);
    for (a = [-fan, 0, fan])
        rotate([0, 0, a]) translate([0, 4, h / 2]) rotate([-90, 0, 0]) cylinder(d = 5.1, h = r);
    // clip slot at the back
    translate([-6, -7, 3]) cube([12, 2, h - 6]);
    // cord hole at the bottom
    translate([r - 6, -3, -1]) cylinder(d = 3.5, h = wall + 2);
}
