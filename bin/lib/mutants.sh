# bin/seckill mutants [NAME...]: shows that the integration tests catch deliberate defects. Sourced by bin/seckill
# (after configure), not run. See docs/testing.md (mutants) and mutants/plan.
#
# Each mutant is a patch (mutants/NAME.patch, its first line says what it breaks and what should catch it) and a
# line of mutants/plan (the Maven modules and failsafe tests it is run against, and the invariants a failure must
# name). One mutant at a time: HEAD's tree is copied (git archive) into .run/mutants/NAME, the patch applied, the copy
# built, an isolated stack started from it (the MUTANT_ ports of bin/stack.env, its run directory inside the copy,
# the secrets as bin/seckill test makes them), the tests run, and the verdict read from the failsafe reports. Then
# the stack is stopped and the copy removed, also on an error or Ctrl-C. A mutant is caught only when a failure
# message names one of its invariants (an incidental failure, a timeout or one user's answer, is not a catch). Exit
# status 0 iff every mutant run was caught.

MUTANTS_DIR="$HOME_DIR/mutants"
MUTANTS_RUN="$HOME_DIR/.run/mutants"

# The names of mutants/plan, in its order.
mutant_names() { awk '!/^#/ && NF { print $1 }' "$MUTANTS_DIR/plan"; }

# mutant_plan NAME: its plan line "NAME MODULES TESTS INVARIANTS"; fails when there is none.
mutant_plan() { awk -v n="$1" '!/^#/ && $1 == n { print; found = 1 } END { exit !found }' "$MUTANTS_DIR/plan"; }

cmd_mutants() {
  local names=() n r rc=0 t0 verdicts=()
  if [ $# -gt 0 ]; then names=("$@"); else read -r -a names <<< "$(mutant_names | paste -sd ' ')"; fi
  for n in "${names[@]}"; do
    mutant_plan "$n" > /dev/null || die "unknown mutant: $n (one of $(mutant_names | paste -sd ' '))"
    [ -f "$MUTANTS_DIR/$n.patch" ] || die "mutants/plan names $n, but there is no mutants/$n.patch"
  done
  [ -z "$(cd "$HOME_DIR" && git status --porcelain -- . ':!.run' 2>/dev/null)" ] \
    || say "warning: the checkout has uncommitted changes; the mutants are applied to HEAD's tree, without them"
  install_stack
  mkdir -p "$MUTANTS_RUN"
  for n in "${names[@]}"; do
    t0=$SECONDS
    # A subshell: the mutant's stack environment and its clean-up trap end with it.
    r=0
    ( mutant_run "$n" ) || r=$?
    case $r in
      0) verdicts+=("$n: caught ($(( (SECONDS - t0) / 60 )) min $(( (SECONDS - t0) % 60 )) s)") ;;
      130) say "interrupted"; return 130 ;;
      1) rc=1; verdicts+=("$n: NOT caught ($(( (SECONDS - t0) / 60 )) min $(( (SECONDS - t0) % 60 )) s)") ;;
      *) rc=1; verdicts+=("$n: NOT RUN, an error (above) ($(( (SECONDS - t0) / 60 )) min $(( (SECONDS - t0) % 60 )) s)") ;;
    esac
  done
  echo
  echo "mutants (details above; the failsafe reports of each are kept in $MUTANTS_RUN/reports/NAME):"
  printf '  %s\n' "${verdicts[@]}"
  return $rc
}

# mutant_run NAME (in a subshell): one mutant from its copy to its verdict; 0 when caught, 1 when not, 2 when it
# could not be run (mutant_error said why), 130 when interrupted.
mutant_run() {
  local name=$1 modules tests invariants dir="$MUTANTS_RUN/$1" log reports
  read -r _ modules tests invariants <<< "$(mutant_plan "$name")"
  log="$MUTANTS_RUN/$name.log"
  reports="$MUTANTS_RUN/reports/$name"
  say "mutant $(head -1 "$MUTANTS_DIR/$name.patch")"
  mutant_teardown "$dir" || mutant_error "mutant $name: an earlier run's stack is still up in $dir"
  # The trap runs as the subshell exits, after this function's locals are gone: the path goes in now.
  # shellcheck disable=SC2064
  trap "mutant_teardown $(printf '%q' "$dir")" EXIT
  trap 'exit 130' INT TERM
  mkdir -p "$dir/.run/cache"
  : > "$log"
  (cd "$HOME_DIR" && git archive HEAD) | tar -x -C "$dir" || mutant_error "failed to copy HEAD into $dir"
  # The copy lies inside this checkout: the ceiling keeps git apply from taking this checkout for its repository.
  GIT_CEILING_DIRECTORIES="$MUTANTS_RUN" git -C "$dir" apply "$MUTANTS_DIR/$name.patch" \
    || mutant_error "mutants/$name.patch does not apply to HEAD"
  # Kafka's jars as this checkout fetched them (install_stack), so the copy's stack does not fetch them again.
  cp -r "$(kafka_lib)" "$dir/.run/cache/"

  isolated_stack MUTANT "$dir/.run/mutant"
  configure
  export SECKILL_ADMIN_TOKEN="$ADMIN_TOKEN" SECKILL_TOKEN_SECRET="$TOKEN_SECRET" SECKILL_HOME="$dir" \
    SECKILL_REDIS_PASSWORD="$REDIS_PASSWORD" SECKILL_DB_PASSWORD="$DB_PASSWORD" SECKILL_LINE_SECRET="$LINE_SECRET"

  say "mutant $name: building the copy (log: $log)"
  (cd "$dir" && ./mvnw -q -B -DskipTests package >> "$log" 2>&1) || mutant_error "mutant $name: the build failed: see $log"
  say "mutant $name: starting its stack in $RUN"
  "$dir/bin/seckill" up "${COMPONENTS[@]}" >> "$log" 2>&1 || mutant_error "mutant $name: its stack did not start: see $log"
  say "mutant $name: running $tests ($modules)"
  # Failures do not stop the build: every test named runs, and the reports say which failed and why.
  (cd "$dir" && ./mvnw -B verify -pl "$modules" -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test="$tests" -Dit.failIfNoSpecifiedTests=false -Dmaven.test.failure.ignore=true >> "$log" 2>&1) \
    || mutant_error "mutant $name: the test build failed: see $log"
  rm -rf "$reports"
  mkdir -p "$reports"
  local m
  for m in ${modules//,/ }; do
    [ -d "$dir/$m/target/failsafe-reports" ] && cp -r "$dir/$m/target/failsafe-reports" "$reports/$m"
  done
  mutant_verdict "$name" "$reports" "$invariants"
}

# mutant_verdict NAME REPORTS INVARIANTS: prints each failed test with the violation kinds its message names
# ("KIND sale N" as the checker's violations print them, or "KIND:") and the verdict; 0 when a failure names one of
# INVARIANTS (comma-separated).
mutant_verdict() {
  local name=$1 reports=$2 invariants=$3 ran failures caught=""
  ran=$(cat "$reports"/*/TEST-*.xml 2>/dev/null | grep -c '<testcase ' || true)
  [ "${ran:-0}" -gt 0 ] || mutant_error "mutant $name: no test ran (the plan's test names?)"
  failures=$(awk '
    /<testcase / {
      test = ""; if (match($0, /classname="[^"]*"/)) test = substr($0, RSTART + 11, RLENGTH - 12)
      sub(/.*\./, "", test)
      if (match($0, / name="[^"]*"/)) test = test "." substr($0, RSTART + 7, RLENGTH - 8)
    }
    /<(failure|error)[ >]/ {
      msg = ""; if (match($0, /message="[^"]*"/)) msg = substr($0, RSTART + 9, RLENGTH - 10)
      gsub(/&#10;/, " ", msg); gsub(/&quot;/, "\"", msg); gsub(/&lt;/, "<", msg); gsub(/&gt;/, ">", msg)
      gsub(/&amp;/, "\\&", msg)
      print test "\t" msg
    }' "$reports"/*/TEST-*.xml)
  if [ -z "$failures" ]; then
    echo "mutant $name: NOT caught: all $ran tests passed"
    return 1
  fi
  local test msg kinds k
  while IFS=$'\t' read -r test msg; do
    kinds=$(grep -oE '\b[A-Z][A-Z_]*[A-Z](:| sale [0-9])' <<< "$msg" | sed 's/[: ].*//' | sort -u | tr '\n' ' ')
    echo "mutant $name: $test failed, naming: ${kinds:-no invariant}"
    echo "    ${msg:0:400}"
    for k in ${invariants//,/ }; do
      if [[ " $kinds" == *" $k "* ]]; then caught+=" $k"; fi
    done
  done <<< "$failures"
  if [ -n "$caught" ]; then
    echo "mutant $name: CAUGHT, a failure names $(tr ' ' '\n' <<< "$caught" | sort -u | tr '\n' ' ' | sed 's/^ *//;s/ *$//') ($ran tests run)"
    return 0
  fi
  echo "mutant $name: NOT caught: no failure names ${invariants//,/ or }"
  return 1
}

# A mutant that could not be run (not a verdict): says why and ends its subshell with 2.
mutant_error() { say "$*"; exit 2; }

# Stops the stack of a mutant's copy (by the copy's own script, with the mutants' ports and its run directory) and
# removes the copy; a copy whose stack failed to stop is left for a look, and the next run of the mutant retries.
mutant_teardown() {
  local dir=$1
  [ -d "$dir" ] || return 0
  if [ -x "$dir/bin/seckill" ] && [ -d "$dir/.run/mutant/pids" ]; then
    if ! (isolated_stack MUTANT "$dir/.run/mutant"; "$dir/bin/seckill" down > /dev/null 2>&1); then
      say "failed to stop the stack of $dir (its pids in $dir/.run/mutant/pids); the copy is left"
      return 1
    fi
  fi
  rm -rf "$dir"
}
