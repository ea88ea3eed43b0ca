#!/usr/bin/env python3
"""Writes a schedule file whose one entry, for the host CPU as `tilec
devices --json` names it, gives kernel FINGERPRINT the schedule JSON.
    schedule-for-host.py TILEC FINGERPRINT SCHEDULE_JSON OUT"""

import json
import subprocess
import sys

tilec, fingerprint, schedule, out = sys.argv[1:5]
listed = json.loads(subprocess.run([tilec, "devices", "--json"], check=True,
                                   stdout=subprocess.PIPE, text=True).stdout)
devices = listed["devices"] if isinstance(listed, dict) else listed
host = [d["id"] for d in devices if d["id"].startswith("cpu:")]
if len(host) != 1:
    sys.exit("schedule-for-host.py: no single cpu device in %r" % devices)
with open(out, "w") as f:
    json.dump({"format": "tilec-schedules", "version": 1,
               "devices": {host[0]: {fingerprint: {
                   "schedule": json.loads(schedule)}}}}, f)
