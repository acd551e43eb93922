# Sourced by scripts/hall and scripts/test: make ./.venv and install the project
# (with the given extras) into it, again only when pyproject.toml, setup.py or the C
# source it builds (the bots' split search) has changed, or the checkout has moved.
# Needs python3 >= 3.11 with venv; everything else comes from PyPI.
set -euo pipefail
extras="${1:-}"
venv="${CARDHALL_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
stamp="$venv/.cardhall-installed-$extras"
# The checkout's own path too: an editable install points at one checkout's sources.
want="$( (pwd; cat pyproject.toml setup.py src/cardhall/bots/split/_search*.[ch]) | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    # The train extra's torch: exactly the CPU build this machine keeps on disk, first, so
    # that the extra's range is met already (left to the range, pip takes a CUDA build of
    # several GB)
    case ",$extras," in *,train,*) "$venv/bin/python" -m pip install --quiet torch==2.13.0 ;; esac
    spec="."
    [ -n "$extras" ] && spec=".[$extras]"
    "$venv/bin/python" -m pip install --quiet -e "$spec"
    echo "$want" > "$stamp"
fi
export PATH="$PWD/$venv/bin:$PATH"
