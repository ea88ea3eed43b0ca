#!/bin/sh
# Installs what bench/run.sh needs beyond tilec's own build: OpenBLAS and
# oneDNN. Only the benchmark uses them, so scripts/setup.sh does not.
set -e
sudo_cmd=""
if [ "$(id -u)" != 0 ]; then sudo_cmd="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get install -y -q --no-install-recommends libopenblas-dev libdnnl-dev
