# Sourced by run-tests.sh and run-workbench.sh: installs what a fresh Debian machine lacks and picks a JDK >= 21.
# Usage: . .ci/setup.sh [--browser]
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

wb_install_packages() {
  local pkgs=()
  command -v mvn >/dev/null 2>&1 || pkgs+=(maven)
  if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then pkgs+=(chromium); fi
  if [ ${#pkgs[@]} -gt 0 ]; then
    echo "setup: installing ${pkgs[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -qq
    as_root apt-get install -y -qq "${pkgs[@]}" >/dev/null
  fi
}

wb_java_major() {
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || { echo 0; return; }
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | awk -F'= ' '/java.specification.version/ {split($2,v,"."); print (v[1]=="1"?v[2]:v[1]); f=1} END {if (!f) print 0}'
}

wb_pick_jdk() {
  local best="" bestv=0 d v
  if [ -n "${JAVA_HOME:-}" ]; then
    v=$(wb_java_major "$JAVA_HOME"); [ "$v" -ge 21 ] && { echo "$JAVA_HOME"; return; }
  fi
  if command -v javac >/dev/null 2>&1; then
    d=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    v=$(wb_java_major "$d"); [ "$v" -ge 21 ] && { echo "$d"; return; }
  fi
  for d in /usr/lib/jvm/*/; do
    d=${d%/}; [ -L "$d" ] && continue
    v=$(wb_java_major "$d"); if [ "$v" -gt "$bestv" ]; then best=$d; bestv=$v; fi
  done
  [ "$bestv" -ge 21 ] && echo "$best"
}

wb_install_packages "$@"
JAVA_HOME=$(wb_pick_jdk || true)
if [ -z "$JAVA_HOME" ]; then
  echo "setup: no JDK >= 21 found (set JAVA_HOME or install one under /usr/lib/jvm)" >&2
  exit 1
fi
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
if [ "$(wb_java_major "$JAVA_HOME")" -ge 23 ]; then
  # Maven 3.8's Guava warns about sun.misc.Unsafe on JDK 23+
  export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
