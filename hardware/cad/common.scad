// Shared dimensions of the printed parts (mm). Print in matte black PLA, 0.2 mm layers.
$fn = 40;
clear = 0.3;              // fit clearance per side

// receiver: TSOP382.. (TSOP38238), current package 5.0 W x 6.95 H x 4.8 D (Vishay's
// package drawing; measure yours), dome at the front: [width, depth, height]
tsop = [5.0, 4.8, 6.95];
bore = 5.0;               // both stops of the aperture
stops = 28.5;             // distance between the stops: atan(5 / 28.5) = 10 deg cut-off
baffles = 4;              // stops and baffles along the tube, all of bore `bore`
tube_od = 11;
tube_id = 7;              // wider between the baffles: wall glints cannot reach the sensor

// the gun's IMU breakout, Adafruit 4503 (LSM6DS3TR-C): its board file's outline
// (Adafruit-LSM6DS3TR-C-PCB, Adafruit_LSM6DS3.brd, layer 20) is 25.4 x 17.78 mm with
// 2.54 mm corner radii, on 1.6 mm FR-4; the header holes run along a long edge. Another
// breakout: measure yours and change these. [length, width, thickness]
imu_board = [25.4, 17.78, 1.6];
imu_at = -45;             // the pocket's centre from the muzzle end of the insert

// tilt switch SW-520D: a 6 mm can, 12 mm long
tilt_d = 6.2; tilt_l = 12.5; tilt_mount = 10;  // upright at a gun pitch of +10 deg

// reed switch: glass 14 mm long, at most 2.5 mm across (MKA-14103 type, 10-15 AT band),
// leads bent down; the channel is 2.8 x 15. The contacts overlap at the middle of the
// glass: a disc magnet magnetised through its thickness, centred over that middle, pulls
// both blades the same way and never closes them (the dead spot). Centred over one END of
// the glass it sends its flux along the blades and across the gap: the magnet sits there
// (hardware/reed.py computes both).
reed_glass = 14;
reed_d = 2.8; reed_l = 15;
magnet_over = reed_glass / 2;  // the magnet's centre from the reed's middle, along it
// the standee's magnet: 6 x 3 mm N35 disc, magnetised through its thickness
magnet_d = 6.3; magnet_h = 3.2;
floor_over_reed = 1.2;    // the lid's recess floor above the reed's channel
foot = [34, 24];          // the standee's printed foot, sits in the pod lid's recess

// the seat pod
pod = [80, 60, 26]; wall = 2.4;

module aperture_tube() {
    // the receiver sits in a pocket behind the rear stop; light enters at the front stop
    len = stops + wall + tsop[1];
    difference() {
        union() {
            translate([-(tsop[0] + 2 * wall) / 2, 0, -(tsop[2] + 2 * wall) / 2])
                cube([tsop[0] + 2 * wall, tsop[1] + wall, tsop[2] + 2 * wall]);
            rotate([-90, 0, 0]) cylinder(d = tube_od, h = len);
        }
        // receiver pocket, dome forward: pushed in from the back, its leads leave there
        translate([-(tsop[0] + clear) / 2, -0.01, -(tsop[2] + clear) / 2])
            cube([tsop[0] + clear, tsop[1] + clear, tsop[2] + clear]);
        // the tube between stops, wider than the bore
        translate([0, tsop[1] + wall, 0]) rotate([-90, 0, 0])
            cylinder(d = tube_id, h = stops + 1);
        // the bore through every stop and baffle
        rotate([-90, 0, 0]) cylinder(d = bore, h = len + 1);
    }
    for (i = [0 : baffles])
        translate([0, tsop[1] + clear + i * stops / baffles, 0]) rotate([-90, 0, 0])
            difference() {
                cylinder(d = tube_od, h = 1.2);
                translate([0, 0, -1]) cylinder(d = bore, h = 4);
            }
}

module aperture_dims() {
    // seen from above: the tube runs along +y, the receiver's pocket at y = 0
    dim([-(tsop[0] + clear) / 2, 0], [(tsop[0] + clear) / 2, 0],
        str("pocket ", tsop[0] + clear, " x ", tsop[1] + clear, " x ", tsop[2] + clear),
        side = -6);
    dim([tube_od / 2, tsop[1] + clear], [tube_od / 2, tsop[1] + clear + stops],
        str("stops ", stops, " apart, bore ", bore), side = -8);
    dim([-tube_od / 2, 0], [-tube_od / 2, stops + wall + tsop[1]],
        str(stops + wall + tsop[1]), side = 8);
}

module reed_channel() {
    // the reed lies along x, 1.2 mm under the recess floor; leads leave at one end
    rotate([0, 90, 0]) cylinder(d = reed_d, h = reed_l, center = true);
    translate([reed_l / 2 - 1, -reed_d / 2, -8]) cube([4, reed_d, 8]);
}

// dimension lines for the PNG renders (build.py renders with show_dims = true; the STL
// files never contain them): from a to b in the XY plane at height z, the label `text`
// (mm) beside the line, `side` mm off it
show_dims = false;
module dim(a, b, text, side = 6, z = 0) {
    d = [b[0] - a[0], b[1] - a[1]];
    len = sqrt(d[0] * d[0] + d[1] * d[1]);
    angle = atan2(d[1], d[0]);
    color("crimson") translate([a[0], a[1], z]) rotate([0, 0, angle]) translate([0, side, 0]) {
        translate([0, -0.15, 0]) cube([len, 0.3, 0.3]);
        for (end = [[0, 0], [len, 180]])
            translate([end[0], 0, 0]) rotate([0, 0, end[1]])
                linear_extrude(0.3) polygon([[0, 0], [2.2, 0.8], [2.2, -0.8]]);
        for (x = [0, len]) translate([x - 0.15, -side, 0]) cube([0.3, side + 1, 0.3]);
        translate([len / 2, 1, 0]) linear_extrude(0.3)
            text(text, size = 3, font = "DejaVu Sans", halign = "center");
    }
}
