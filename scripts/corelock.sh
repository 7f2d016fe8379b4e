# Sourced by scripts/notebooks.sh: the machine-wide lock that full notebook
# runs take, so that a notebook that needs the cores to itself never runs
# beside another.
#
# Most notebooks take the lock shared, so that two runs of notebooks.sh may
# share the cores. A notebook whose metadata says "gdlab": {"alone": true}
# takes it exclusively: its claims compare players at equal time on the
# premise that each of their threads has a core, and beside another
# notebook that premise fails and the measurement with it. A waiting
# exclusive run holds a turnstile, so new shared runs queue behind it
# instead of starving it. The lock keeps other runs of notebooks.sh off the
# cores, not other programs.
#
# The lock file is GDLAB_NOTEBOOK_LOCK, by default gdlab-notebooks.lock in
# the temporary directory; the turnstile is the same name with .turnstile
# appended. Descriptor 8 holds the turnstile and 9 the lock. Needs $python.

# notebook_alone prints true when notebook $1 asks for the machine to
# itself, false otherwise.
notebook_alone() {
  "$python" -c 'import json, sys
meta = json.load(open(sys.argv[1])).get("metadata", {})
print("true" if meta.get("gdlab", {}).get("alone") is True else "false")' "$1"
}

# lock_cores takes the lock for notebook $1: exclusive when it asks to be
# alone, shared otherwise. It says so when it has to wait.
lock_cores() {
  local lock="${GDLAB_NOTEBOOK_LOCK:-${TMPDIR:-/tmp}/gdlab-notebooks.lock}"
  # Created writable by all, so that every user's runs share one lock;
  # opened for reading, which flock needs no more than.
  (umask 000 && : >>"$lock" && : >>"$lock.turnstile") 2>/dev/null || true
  exec 8<"$lock.turnstile" 9<"$lock"
  flock 8
  if [ "$(notebook_alone "$1")" = true ]; then
    if ! flock -n -x 9; then
      echo "    $1 needs the machine to itself: waiting for other notebook runs to end"
      flock -x 9
    fi
  elif ! flock -n -s 9; then
    echo "    $1 waits for a notebook that needs the machine to itself"
    flock -s 9
  fi
  flock -u 8
}

# unlock_cores releases the lock lock_cores took.
unlock_cores() {
  flock -u 9
}
