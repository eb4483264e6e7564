// The worn target: three 5 mm IR LEDs fanned at -45, 0, +45 deg in a half-round front,
// a bar at the back for a badge clip's strap, a hole for the cord. Printed open at the
// top: wire it from there, then close it with tape or a dab of hot glue.
include <common.scad>
r = 16; h = 14; fan = 45;
difference() {
    union() {
        intersection() {
            cylinder(r = r, h = h);
            translate([-r, 0, 0]) cube([2 * r, r, h]);
        }
        translate([-r, -6, 0]) cube([2 * r, 6, h]);
        // strap bar: a bridge standing 2.5 mm off the back
        translate([-8, -6 - 5.5, h / 2 - 2]) difference() {
            cube([16, 5.5, 4]);
            translate([3, 0, -1]) cube([10, 2.5 + 0.01, 6]);
        }
    }
    // cavity for the resistors and wiring
    translate([-r + wall, -6 + wall, wall]) cube([2 * r - 2 * wall, 6 - wall + 4, h]);
    for (a = [-fan, 0, fan])
        rotate([0, 0, a]) translate([0, 4, h / 2]) rotate([-90, 0, 0]) cylinder(d = 5.1, h = r);
    // cord hole at the bottom
    translate([r - 6, -3, -1]) cylinder(d = 3.5, h = wall + 2);
}
if (show_dims) {
    dim([-r, -6], [r, -6], str(2 * r), side = -14);
    dim([r, -6], [r, r], str(r + 6), side = -8);
    dim([0, 0], [r * sin(fan), r * cos(fan)], str("LEDs at ", -fan, ", 0, +", fan, " deg"),
        side = 3, z = h);
    dim([-8, -11.5], [8, -11.5], "strap bar 16", side = -6);
}
