// Shared dimensions of the printed parts (mm). Print in matte black PLA, 0.2 mm layers.
$fn = 40;
clear = 0.3;              // fit clearance per side

// receiver: TSOP38238, body 6.0 W x 7.0 H x 5.6 D (check yours), dome at the front
tsop = [6.0, 5.6, 7.0];
bore = 5.0;               // both stops of the aperture
stops = 28.5;             // distance between the stops: atan(5 / 28.5) = 10 deg cut-off
baffles = 4;              // stops and baffles along the tube, all of bore `bore`
tube_od = 11;
tube_id = 7;              // wider between the baffles: wall glints cannot reach the sensor

// tilt switch SW-520D: a 6 mm can, 12 mm long
tilt_d = 6.2; tilt_l = 12.5; tilt_mount = 10;  // upright at a gun pitch of +10 deg

// reed switch (glass 2.5 x 14 mm body, leads bent down) and the standee's magnet (6 x 3)
reed_d = 2.8; reed_l = 15;
magnet_d = 6.3; magnet_h = 3.2;
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

module reed_channel() {
    // the reed lies along x, 1.2 mm under the recess floor; leads leave at one end
    rotate([0, 90, 0]) cylinder(d = reed_d, h = reed_l, center = true);
    translate([reed_l / 2 - 1, -reed_d / 2, -8]) cube([4, reed_d, 8]);
}
