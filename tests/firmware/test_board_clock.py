"""The board's clock stand-in (stubs/time.py), on which every firmware test's timing rests.

Read by two threads at once, as the hub's main loop and its slot clock read it, through
stops of the whole process (a busy host's), it stands still through each stop and never
runs back. It once did, by a stop's length, when both threads found the same gap and
counted it twice: the hub's lock LED then blinked at times before the world showed it a
second badge.
"""

import json
import subprocess
import time

from firmware_harness import HERE, stop_for

PROBE = """
import _thread
import json
import select
import sys
import time

ended = [False]
finished = []
went_back = {"main": 0, "slot": 0}


def read(name):
    last = time.ticks_us()
    n = 0
    while not ended[0]:
        now = time.ticks_us()
        if time.ticks_diff(now, last) < 0:
            went_back[name] += 1
        last = now
        n += 1
        if name == "main" and n % 1000 == 0 and poll.poll(0):
            ended[0] = True
    finished.append(name)


poll = select.poll()
poll.register(sys.stdin, select.POLLIN)
_thread.start_new_thread(read, ("slot",))
print("reading")
read("main")
while len(finished) < 2:  # the slot thread's last pass
    time.sleep_ms(1)
print(json.dumps({"went_back": went_back, "stood_us": time.host_and_stood()[1]}))
"""


def test_the_boards_clock_stands_still_through_each_stop_and_never_runs_back(
    micropython, tmp_path
):
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    proc = micropython.popen(
        script, tmp_path, subprocess.PIPE, subprocess.PIPE, path=[HERE / "stubs"]
    )
    try:
        assert proc.stdout.readline() == b"reading\n"
        stops, stopped_s = 5, 0.3
        for _ in range(stops):
            time.sleep(0.2)  # where the next stop falls, not a wait for anything
            stop_for(proc, stopped_s)
        out, err = proc.communicate(b"end\n", timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err.decode()
    said = json.loads(out)
    assert said["went_back"] == {"main": 0, "slot": 0}
    # every stop stood still (a stop takes hold a little after its signal on a busy host)
    assert said["stood_us"] >= stops * (stopped_s - 0.05) * 1e6
