#!/bin/bash
# sweep_slurm.sh -- sample Slurm batch script for a parameter sweep (docs/sweeps.md 6 and 7).
# Not run by the tests. Two ways to run the same study on a cluster; pick one.
#
# (a) Job array, no MPI: each array task runs a slice of ROWS_PER_TASK rows of the table
#     (task t runs rows t*ROWS_PER_TASK+1 ... (t+1)*ROWS_PER_TASK), all into the same DIR on a
#     shared file system. Every task writes DIR/case-<row>.* and DIR/summary-rows-A-B.csv; when
#     all tasks are done, one more step builds DIR/summary.csv:
#         sbatch --array=0-6 input-examples/sweep_slurm.sh        # 28 rows / 4 per task = 7 tasks
#         mbsolve --sweep-merge sweep-out                          # afterwards (or a dependent job:
#                                                                  #  sbatch --dependency=afterok:<jobid> ...)
#     A task that is killed (time limit, preemption) can simply be resubmitted: finished cases
#     are skipped (DIR/case-<row>.done), the unfinished ones run again.
#
# (b) MPI: one job, K ranks; rank 0 hands out the rows one at a time, so cases of uneven length
#     balance. Comment out the --array line, set --ntasks, and use the srun line below.
#
#SBATCH --job-name=mbsolve-sweep
#SBATCH --array=0-6
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
#SBATCH --output=sweep-%A_%a.log

set -euo pipefail
DECK=input-examples/sweep_pendulum.mbd
TABLE=input-examples/sweep_pendulum.csv
DIR=sweep-out
ROWS_PER_TASK=4
REPORTS=(--report 'theta_end=atan2(final(node 2, x), -final(node 2, y))'
         --report 'Fmax=maximum(joint 2, F)')

# (a) job array: the slice comes from SLURM_ARRAY_TASK_ID.
mbsolve --sweep "$TABLE" -f "$DECK" -o "$DIR" -D TF=10 -D DT=1e-3 \
        --rows-per-task "$ROWS_PER_TASK" "${REPORTS[@]}"

# (b) MPI (with #SBATCH --ntasks=K and no --array): every rank runs the same command.
# srun mbsolve --sweep "$TABLE" -f "$DECK" -o "$DIR" -D TF=10 -D DT=1e-3 "${REPORTS[@]}"
