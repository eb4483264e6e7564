// Glued into the foam gun along the barrel: aperture at the muzzle, the IMU breakout in
// a pocket flat on the floor (its long side along the barrel), lock LED at the back
// facing the holder, cord clamp at the grip. `sensor = "tilt"` prints v2's insert for a
// gun wired to the Pi (a ball tilt switch pocket tilted so the switch stands upright at
// a gun pitch of +10 deg) instead of the IMU's pocket.
include <common.scad>
sensor = "imu";
length = 90; width = 14; base = 3;
pocket = [imu_board[1] + 2 * clear, imu_board[0] + 2 * clear];  // [across, along]
pad = [pocket[0] + 2 * wall, pocket[1] + 2 * wall];
difference() {
    union() {
        translate([-width / 2, -length, 0]) cube([width, length, base]);
        if (sensor == "imu")  // the pad round the IMU's pocket, wider than the insert
            translate([-pad[0] / 2, imu_at - pad[1] / 2, 0])
                cube([pad[0], pad[1], base + imu_board[2]]);
        else  // tilt switch boss
            translate([0, -40, base]) cylinder(d = tilt_d + 2 * wall, h = 10);
        // lock LED post at the back
        translate([-5, -length, 0]) cube([10, 6, 14]);
        // cord clamp
        translate([-width / 2, -70, 0]) cube([width, 6, 9]);
    }
    if (sensor == "imu")  // the board lies in it, its top flush with the pad's
        translate([-pocket[0] / 2, imu_at - pocket[1] / 2, base])
            cube([pocket[0], pocket[1], imu_board[2] + 1]);
    else  // tilt switch pocket, leads down, tilted by the mount angle about the gun's y axis
        translate([0, -40, base + 10]) rotate([tilt_mount, 0, 0])
            cylinder(d = tilt_d, h = 2 * tilt_l, center = true);
    // lock LED hole (3 mm) facing back
    translate([0, -length - 1, 9]) rotate([-90, 0, 0]) cylinder(d = 3.2, h = 8);
    // cord slot through the clamp, 7.2 x 4.4: a flat 6-wire cord (about 6.6 x 3) or a
    // round coiled one (about 4); a dab of hot glue holds either
    hull() for (x = [-1.4, 1.4])
        translate([x, -71, 4.5]) rotate([-90, 0, 0]) cylinder(d = 4.4, h = 8);
    // wire pass for the receiver's leads
    translate([-2, -12, -1]) cube([4, 10, base + 2]);
}
translate([0, 0, (tsop[2] + 2 * wall) / 2]) aperture_tube();
if (show_dims) {
    aperture_dims();
    dim([width / 2, -length], [width / 2, 0], str(length), side = -16);
    dim([-width / 2, -length], [width / 2, -length], str(width), side = -8);
    if (sensor == "imu") {
        dim([-pocket[0] / 2, imu_at + pad[1] / 2], [pocket[0] / 2, imu_at + pad[1] / 2],
            str("IMU pocket ", pocket[0], " x ", pocket[1], " x ", imu_board[2]), side = 4,
            z = base + imu_board[2]);
        dim([pad[0] / 2, imu_at], [pad[0] / 2, 0], str("pocket centre ", -imu_at,
            " from the muzzle end"), side = -6);
    } else
        dim([width / 2, -40], [width / 2, 0], "tilt pocket 40 from the muzzle end",
            side = -22);
    dim([-3.6, -64], [3.6, -64], "cord slot 7.2 x 4.4", side = 6, z = 9);
}
