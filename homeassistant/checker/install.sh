#!/usr/bin/env bash
# The virtual environment with Home Assistant that tests/homeassistant/ runs check.py in,
# made once per version of requirements.txt under the user's cache folder; prints its path.
# Home Assistant needs Python 3.13: $HA_PYTHON, else python3.13 on the PATH, else pyenv's.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
HA_VERSION=2025.4.4
key="$(cat "$here/requirements.txt" "$0" | sha256sum | cut -c1-12)"
venv="${XDG_CACHE_HOME:-$HOME/.cache}/cashnguns-companion/homeassistant-$HA_VERSION-$key"
mkdir -p "$(dirname "$venv")"
# one maker at a time: `./dev test` starts one in the background while the suite runs, and
# the test that needs the environment waits here for it
exec 9>"$venv.lock"
flock 9
if [ -f "$venv/.installed" ]; then echo "$venv"; exit 0; fi
python=""
for candidate in "${HA_PYTHON:-}" "$(command -v python3.13 || true)" \
    "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13*/bin/python3.13; do
  # (a pyenv shim is on the PATH even when no version it names is selected: try each)
  if [ -n "$candidate" ] && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 13))' \
      2>/dev/null; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "Home Assistant $HA_VERSION needs Python 3.13, found neither \$HA_PYTHON, python3.13" \
       "on the PATH nor pyenv's 3.13: install one (e.g. pyenv install 3.13.0)" >&2
  exit 3
fi
rm -rf "$venv"
"$python" -m venv "$venv"
{
  "$venv/bin/python" -m pip install -q --no-deps "homeassistant==$HA_VERSION"
  "$venv/bin/python" -m pip install -q --prefer-binary -r "$here/requirements.txt"
} >"$venv/install.log" 2>&1 || { tail -20 "$venv/install.log" >&2; exit 1; }
touch "$venv/.installed"
echo "$venv"
