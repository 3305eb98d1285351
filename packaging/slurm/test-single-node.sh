#!/bin/bash
# Runs digest-array.sbatch on a real single-node Slurm on this machine and checks that the digests it
# writes equal those `runlens digest` writes without Slurm, byte for byte.
#
#   sudo packaging/slurm/test-single-node.sh [RUNLENS_BINARY]
#
# Root on Debian 12 (or another apt system): installs slurm-wlm and munge when missing, then starts its own
# munged, slurmctld and slurmd with their own key, socket, ports (16817/16818), state and logs under
# $RUNLENS_SLURM_TEST_DIR (default /var/tmp/runlens-slurm-test), so a Slurm or munge already on the machine
# is neither used nor touched. The daemons it started are stopped on exit, whatever happens; a re-run first
# stops any left from an earlier run that was killed, then starts afresh. Not part of ctest: it installs
# packages and runs daemons. Prints PASS or FAIL last; exit code 0 on PASS.
#
# RUNLENS_BINARY defaults to build/release/app/runlens of this checkout (build it with
# `cmake --build --preset release --target runlens`).

set -u

here=$(cd "$(dirname "$0")" && pwd)
source_root=$(cd "$here/../.." && pwd)
runlens=$(realpath -m "${1:-$source_root/build/release/app/runlens}")
base=${RUNLENS_SLURM_TEST_DIR:-/var/tmp/runlens-slurm-test}
ranks=16
ranks_per_task=4
tasks=$((ranks / ranks_per_task))

say() { echo "== $*"; }
fail() {
    echo "FAIL: $*"
    exit 1
}

[ "$(id -u)" -eq 0 ] || fail "run as root (it installs packages and starts daemons)"
[ -x "$runlens" ] || fail "no runlens binary at $runlens (build the runlens target or pass its path)"

# --- packages -------------------------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null \
    || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q slurm-wlm munge; then
        { apt-get update -q && apt-get install -y -q slurm-wlm munge; } \
            || fail "apt-get could not install slurm-wlm and munge"
    fi
fi

# --- stop what an earlier, killed run left, then start from empty folders -------------------------------
stop_recorded() {
    # Only processes this script recorded, and only while they still are the program recorded.
    local file pid name
    for file in "$base"/run/*.pid; do
        [ -f "$file" ] || continue
        pid=$(cat "$file")
        name=$(basename "$file" .pid)
        if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ]; then
            kill "$pid" 2>/dev/null
            for _ in $(seq 50); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
            kill -9 "$pid" 2>/dev/null
        fi
        rm -f "$file"
    done
}
our_stepds() {
    # slurmstepd (one per job step) is started by our slurmd and inherits its environment, SLURM_CONF
    # naming our slurm.conf; it detaches from slurmd, so its pid is known only this way.
    local pid
    for pid in $(pgrep -x slurmstepd); do
        tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "SLURM_CONF=$base/slurm.conf" && echo "$pid"
    done
}
wait_for_steps() {
    # A step ends a moment after its job: stopping slurmd first would leave it to finish alone.
    local pid
    for _ in $(seq 100); do
        [ -z "$(our_stepds)" ] && return 0
        sleep 0.1
    done
    for pid in $(our_stepds); do
        echo "stopping job step $pid ($(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null))"
        kill "$pid" 2>/dev/null
    done
}
wait_for_steps
stop_recorded
trap 'wait_for_steps; stop_recorded' EXIT
trap 'exit 130' INT TERM

rm -rf "${base:?}"/{munge,state,spool,log,job,digests-slurm,digests-local,slurm.conf}
mkdir -p "$base"/{run,munge,state,spool,log,job}
chmod 700 "$base/munge"

# --- munge: own key and socket --------------------------------------------------------------------------
dd if=/dev/urandom of="$base/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$base/munge/munge.key"
munge_socket=$base/munge/munge.socket
munged --foreground --force --key-file="$base/munge/munge.key" --socket="$munge_socket" \
    --pid-file="$base/munge/munged.pidfile" --log-file="$base/log/munged.log" \
    --seed-file="$base/munge/munged.seed" >>"$base/log/munged.log" 2>&1 &
echo $! >"$base/run/munged.pid"
for _ in $(seq 50); do
    [ -S "$munge_socket" ] && break
    sleep 0.1
done
munge --socket="$munge_socket" -n | unmunge --socket="$munge_socket" >/dev/null \
    || { tail -n 20 "$base/log/munged.log"; fail "munged does not answer on $munge_socket"; }
say "munged up ($munge_socket)"

# --- slurm.conf for this one node -----------------------------------------------------------------------
host=$(hostname -s)
# "NodeName=vm CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=7940"
node_line=$(slurmd -C | grep '^NodeName=' | head -n 1)
[ -n "$node_line" ] || fail "slurmd -C printed no NodeName line"
cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$node_line")
cat >"$base/slurm.conf" <<CONF
# Written by packaging/slurm/test-single-node.sh: one node, everything under $base.
ClusterName=runlenstest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$munge_socket
CredType=cred/munge
StateSaveLocation=$base/state
SlurmdSpoolDir=$base/spool
SlurmctldPidFile=$base/state/slurmctld.pidfile
SlurmdPidFile=$base/spool/slurmd.pidfile
SlurmctldLogFile=$base/log/slurmctld.log
SlurmdLogFile=$base/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# No cgroups in a container without systemd: plain process tracking, no task binding, no accounting.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=runlens Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$base/slurm.conf
slurm_version=$(sbatch --version 2>/dev/null)
say "using $slurm_version, $(munged --version 2>&1 | head -n 1)"
say "slurm.conf: $node_line"

# --- daemons, in the foreground of background jobs so their pids are ours ------------------------------
slurmctld -D -i -f "$SLURM_CONF" >>"$base/log/slurmctld.out" 2>&1 &
echo $! >"$base/run/slurmctld.pid"
slurmd -D -N "$host" -f "$SLURM_CONF" >>"$base/log/slurmd.out" 2>&1 &
echo $! >"$base/run/slurmd.pid"

state=
for _ in $(seq 60); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null | head -n 1)
    [ "$state" = idle ] && break
    sleep 1
done
if [ "$state" != idle ]; then
    sinfo -R 2>&1
    tail -n 20 "$base"/log/slurmctld.log "$base"/log/slurmd.log "$base"/log/*.out 2>/dev/null
    fail "node $host is '${state:-not known}' after 60 s, not idle"
fi
say "node $host idle"
sinfo

# --- a 16-rank Kineto job, the layout tests/importers/cluster/kinetorankfixture.h writes ----------------
/usr/bin/python3 - "$base/job" "$ranks" <<'PY' || fail "could not generate the job"
import sys

def rank_trace(rank, ranks, steps, slow_rank):
    events = []
    kernel_us = 500.0 if rank == slow_rank else 200.0
    correlation = 1
    for step in range(steps):
        s = 1000.0 + step * 2000.0
        events.append('{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": 10, '
                      '"tid": 10, "ts": %.3f, "dur": 1900.0}' % (step + 1, s))
        events.append('{"ph": "X", "cat": "cpu_op", "name": '
                      '"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", '
                      '"pid": 10, "tid": 10, "ts": %.3f, "dur": 100.0}' % (s + 1))
        gpu = s + 150
        for k in range(3):
            t = s + 110 + k * 20
            events.append('{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 10, '
                          '"ts": %.3f, "dur": 10.0, "args": {"External id": %d}}' % (t, correlation))
            events.append('{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, '
                          '"tid": 10, "ts": %.3f, "dur": 5.0, "args": {"correlation": %d}}' % (t + 2, correlation))
            events.append('{"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_f16f16_f32", "pid": 0, '
                          '"tid": 7, "ts": %.3f, "dur": %.3f, "args": {"correlation": %d, "stream": 7}}'
                          % (gpu, kernel_us, correlation))
            gpu += kernel_us + 5
            correlation += 1
        t = s + 200
        events.append('{"ph": "X", "cat": "cpu_op", "name": "nccl:all_reduce", "pid": 10, "tid": 10, '
                      '"ts": %.3f, "dur": 10.0, "args": {"External id": %d}}' % (t, correlation))
        events.append('{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, '
                      '"tid": 10, "ts": %.3f, "dur": 5.0, "args": {"correlation": %d}}' % (t + 2, correlation))
        events.append('{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", '
                      '"pid": 0, "tid": 20, "ts": %.3f, "dur": %.3f, "args": {"correlation": %d, '
                      '"stream": 20, "Collective name": "allreduce", "In msg nelems": 1048576, '
                      '"Out msg nelems": 1048576, "Group size": %d, "dtype": "Float", '
                      '"Process Group Name": "0", "Process Group Description": "default_pg", '
                      '"Process Group Ranks": "[0, 1]"}}'
                      % (gpu - 50, 1850.0 - (gpu - 50 - s), correlation, ranks))
        correlation += 1
    head = ('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100", '
            '"totalGlobalMem": 85520809984}], "distributedInfo": {"backend": "nccl", "rank": %d, '
            '"world_size": %d}, "baseTimeNanoseconds": 1759276800000000000, "traceEvents": [\n' % (rank, ranks))
    return head + ",\n".join(events) + "\n]}\n"

folder, ranks = sys.argv[1], int(sys.argv[2])
for r in range(ranks):
    # Kineto's own names: the rank is only inside the file. Rank 5 is the straggler.
    with open("%s/node%d_%d.1700000000.pt.trace.json" % (folder, r // 4, 1000 + r), "w") as f:
        f.write(rank_trace(r, ranks, 3, 5))
PY
say "generated $(find "$base/job" -name '*.pt.trace.json' | wc -l) rank traces in $base/job"

# --- the array: 4 tasks x 4 ranks -----------------------------------------------------------------------
cpus_per_task=$((cpus >= 2 ? 2 : 1))
say "sbatch --wait --array=0-$((tasks - 1)), $ranks_per_task ranks per task, $cpus_per_task CPU(s) per task"
timeout 600 sbatch --wait --array=0-$((tasks - 1)) --cpus-per-task="$cpus_per_task" --mem-per-cpu=256M \
    --time=00:10:00 --chdir="$base/log" --output="$base/log/runlens-digest-%A_%a.log" \
    --export="ALL,RUNLENS=$runlens,RUNLENS_RANKS_PER_TASK=$ranks_per_task" \
    "$here/digest-array.sbatch" "$base/job" "$base/digests-slurm"
sbatch_status=$?
for log in "$base"/log/runlens-digest-*_*.log; do
    [ -f "$log" ] || continue
    echo "-- $(basename "$log")"
    cat "$log"
done
[ $sbatch_status -eq 0 ] || fail "sbatch --wait exited with $sbatch_status (a task failed or timed out)"

# --- the same digests without Slurm, then compare ------------------------------------------------------
QT_QPA_PLATFORM=offscreen "$runlens" digest "$base/job" --out "$base/digests-local" 2>"$base/log/local.err" \
    || { cat "$base/log/local.err"; fail "runlens digest without Slurm failed"; }
say "in-process: $(tail -n 1 "$base/log/local.err")"

problems=0
equal=0
slurm_count=$(find "$base/digests-slurm" -name '*.rldigest' | wc -l)
local_count=$(find "$base/digests-local" -name '*.rldigest' | wc -l)
[ "$slurm_count" -eq "$ranks" ] || { echo "Slurm wrote $slurm_count digests, not $ranks"; problems=$((problems + 1)); }
[ "$local_count" -eq "$ranks" ] || { echo "in-process wrote $local_count digests, not $ranks"; problems=$((problems + 1)); }
for r in $(seq 0 $((ranks - 1))); do
    a=$base/digests-slurm/rank-$r.rldigest
    b=$base/digests-local/rank-$r.rldigest
    if ! cmp -s "$a" "$b"; then
        echo "rank $r: $a and $b differ"
        problems=$((problems + 1))
    else
        equal=$((equal + 1))
    fi
done
say "compared $ranks digests byte for byte: $equal equal"
ls -l "$base/digests-slurm"

# The folder opens as the job's cluster: the advisor finds rank 5, the straggler the generator made.
QT_QPA_PLATFORM=offscreen "$runlens" advise "$base/digests-slurm" >"$base/log/advise.out" 2>&1
if grep -q "^\[warning\].*straggler-rank" "$base/log/advise.out" && grep -q "Rank 5 " "$base/log/advise.out"; then
    say "runlens advise on the Slurm digests: $(grep -m 1 "Rank 5 " "$base/log/advise.out" | sed 's/^ *//')"
else
    cat "$base/log/advise.out"
    echo "runlens advise on the Slurm digests did not find rank 5 as the straggler"
    problems=$((problems + 1))
fi

# A task whose slice holds no rank (an array larger than the job) must fail, and say so in its log.
say "a task past the last rank must fail: sbatch --wait --array=$tasks"
timeout 300 sbatch --wait --array=$tasks --cpus-per-task=1 --mem-per-cpu=256M --time=00:05:00 \
    --chdir="$base/log" --output="$base/log/runlens-digest-%A_%a.log" \
    --export="ALL,RUNLENS=$runlens,RUNLENS_RANKS_PER_TASK=$ranks_per_task" \
    "$here/digest-array.sbatch" "$base/job" "$base/digests-slurm"
bad_status=$?
bad_log=$(find "$base/log" -name "runlens-digest-*_$tasks.log" | head -n 1)
echo "-- $(basename "${bad_log:-no log}") (sbatch exit code $bad_status)"
[ -n "$bad_log" ] && cat "$bad_log"
if [ $bad_status -eq 0 ] || [ -z "$bad_log" ] || ! grep -q "runlens-digest: task $tasks: runlens digest failed" "$bad_log"; then
    echo "the task past the last rank did not fail with its message in the Slurm log"
    problems=$((problems + 1))
fi
[ "$(find "$base/digests-slurm" -name '*.rldigest' | wc -l)" -eq "$ranks" ] \
    || { echo "the failing task changed the digest folder"; problems=$((problems + 1)); }

[ $problems -eq 0 ] || fail "$problems problem(s); logs in $base/log"
echo "PASS: $ranks ranks digested by a $tasks-task Slurm array ($slurm_version) equal the in-process digests"
