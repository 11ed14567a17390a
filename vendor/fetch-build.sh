#!/usr/bin/env bash
# Build cairn's third-party static libraries (zlib, nghttp2, mbedTLS, libcurl,
# protobuf-c, inih) from Debian's
# source packages, with Debian's patches applied.  See docs/vendor.md.
#
#   vendor/fetch-build.sh musl         build .cache/vendor/musl/{include,lib}  (CC=musl-gcc)
#   vendor/fetch-build.sh host         build .cache/vendor/host/{include,lib}  (CC=cc)
#   vendor/fetch-build.sh aarch64      build .cache/vendor/aarch64/...  (CC=aarch64-linux-musl-gcc)
#   vendor/fetch-build.sh armv7        build .cache/vendor/armv7/...    (CC=arm-linux-musleabihf-gcc)
#   vendor/fetch-build.sh update-pins  rewrite vendor/pins to what apt serves now (no build)
#
# A finished build leaves <flavour>/.stamp; later runs only check the stamp.
set -euo pipefail
export LC_ALL=C DEBIAN_FRONTEND=noninteractive
# Nothing from a calling make or the environment may leak into these builds.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL GNUMAKEFLAGS \
      CFLAGS CPPFLAGS CXXFLAGS LDFLAGS LIBS CC CPP AR RANLIB \
      PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

die() { echo "vendor: error: $*" >&2; exit 1; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cache=$top/.cache/vendor
pins_file=$here/pins

mode=${1:-}
# Cross flavours use Debian's cross compilers with its multiarch musl
# (musl-dev:arm64, musl-dev:armhf): the *-musl*-gcc wrappers add musl's specs.
# CROSS is the GNU host triple given to configure scripts and CMake.
CROSS= CROSS_AR= CROSS_CPU=
case $mode in
  musl) CC_CMD=musl-gcc ;;
  host) CC_CMD=cc ;;
  aarch64) CC_CMD=aarch64-linux-musl-gcc CROSS=aarch64-linux-musl
           CROSS_AR=aarch64-linux-gnu-ar CROSS_CPU=aarch64 ;;
  armv7) CC_CMD=arm-linux-musleabihf-gcc CROSS=arm-linux-musleabihf
         CROSS_AR=arm-linux-gnueabihf-ar CROSS_CPU=armv7 ;;
  update-pins) ;;
  *) echo "usage: $0 musl|host|aarch64|armv7|update-pins" >&2; exit 2 ;;
esac

# ---------------------------------------------------------------- packages
# KEY:source-package:what it is.  KEY names the pins (KEY_DEBIAN_VERSION,
# KEY_ORIG_SHA256, KEY_DEBIAN_SHA256, optional KEY_RELEASE).
PACKAGES=(
  ZLIB:zlib
  NGHTTP2:nghttp2
  MBEDTLS:mbedtls
  CURL:curl
  PROTOBUF_C:protobuf-c
  INIH:libinih
)

# ---------------------------------------------------------------- pins
declare -A PIN=()
read_pins() {
  local line key val
  while IFS= read -r line || [[ -n $line ]]; do
    line=${line%%#*}
    line=${line//[[:space:]]/}
    [[ -z $line ]] && continue
    [[ $line == *=* ]] || die "$pins_file: bad line '$line'"
    key=${line%%=*} val=${line#*=}
    case $key in
      *_DEBIAN_VERSION) [[ $val =~ ^[0-9][A-Za-z0-9.+~:-]*$ ]] ;;
      *_SHA256) [[ $val =~ ^[0-9a-f]{64}$ ]] ;;
      DEBIAN_RELEASE|*_RELEASE) [[ $val =~ ^[a-z]+$ ]] ;;
      *) false ;;
    esac || die "$pins_file: bad entry '$line'"
    PIN[$key]=$val
  done <"$pins_file"
  [[ -n ${PIN[DEBIAN_RELEASE]:-} ]] || die "$pins_file: DEBIAN_RELEASE missing"
  local p
  for p in "${PACKAGES[@]}"; do
    for key in ${p%%:*}_DEBIAN_VERSION ${p%%:*}_ORIG_SHA256 ${p%%:*}_DEBIAN_SHA256; do
      [[ -n ${PIN[$key]:-} ]] || die "$pins_file: $key missing"
    done
  done
}
read_pins

upstream_of() { local v=${1#*:}; echo "${v%-*}"; }   # strip epoch and Debian revision
deb_of() { echo "${PIN[${1}_DEBIAN_VERSION]}"; }
up_of() { upstream_of "$(deb_of "$1")"; }
# The Debian release (suite family) a package is taken from.
release_of() { echo "${PIN[${1}_RELEASE]:-${PIN[DEBIAN_RELEASE]}}"; }
RELEASES=$(for p in "${PACKAGES[@]}"; do release_of "${p%%:*}"; done | sort -u)

# Anything that changes the output invalidates the caches: the pins and this recipe.
recipe_id=$(cat "$pins_file" "$here/fetch-build.sh" | sha256sum | cut -c1-16)

mkdir -p "$cache"
# One build at a time (both flavours share src/ and the apt state).
exec 9>"$cache/.lock"
flock 9

# ---------------------------------------------------------------- helpers
LOGDIR=$cache/logs
# run_logged NAME CMD...: run CMD with its output in $LOGDIR/NAME.log; on failure
# show the end of that log and stop.
run_logged() {
  local name=$1; shift
  local log=$LOGDIR/$name.log
  mkdir -p "$LOGDIR"
  if ! "$@" >>"$log" 2>&1; then
    echo "vendor: FAILED: $name (log: ${log#"$top"/}); last lines:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
}
in_dir() { cd "$1" && shift && "$@"; }

# ---------------------------------------------------------------- private apt
# One private apt configuration per Debian release, with deb-src entries
# derived from the system's own apt sources: every entry for the system's
# release (bookworm, bookworm-updates, bookworm-security) is rewritten for the
# wanted release (trixie, trixie-updates, trixie-security), same URIs, same
# keyring.  The system's configuration and lists are never modified.
APT_ROOT=$cache/apt
APT_OPTS=()
use_apt() {   # use_apt RELEASE: point APT_OPTS at that release's private state
  local d=$APT_ROOT/$1
  APT_DIR=$d
  APT_OPTS=(
    -o "Dir::Etc::SourceList=$d/sources.list"
    -o "Dir::Etc::SourceParts=$d/sources.list.d"
    -o "Dir::State::Lists=$d/lists"
    -o "Dir::Cache=$d/cache"
    -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
    -o "Acquire::Languages=none"
  )
  if (( $(id -u) == 0 )); then APT_OPTS+=(-o "APT::Sandbox::User=root"); fi
}

write_apt_sources() {   # write_apt_sources RELEASE (after use_apt RELEASE)
  local target=$1 sys_list sys_parts codename=
  eval "$(apt-config shell sys_list Dir::Etc::SourceList/f sys_parts Dir::Etc::SourceParts/d)"
  # shellcheck disable=SC1091
  [[ -r /etc/os-release ]] && codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  [[ -n $codename ]] || die "cannot tell the system's Debian release (VERSION_CODENAME in /etc/os-release)"
  rm -rf "$APT_DIR"
  mkdir -p "$APT_DIR/sources.list.d" "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
  : >"$APT_DIR/sources.list"
  python3 - "$codename" "$target" "$APT_DIR/sources.list.d" "$sys_list" "$sys_parts" <<'PY'
import glob, os, sys
codename, target, outdir, sys_list, sys_parts = sys.argv[1:6]

def retarget(s):
    # this release's suites only (bookworm, bookworm-updates, bookworm-security...),
    # renamed for the target release; None for any other suite
    if s == codename:
        return target
    if s.startswith(codename + "-"):
        return target + s[len(codename):]
    return None

one_line, stanzas = [], []

def read_list(path):
    for raw in open(path, encoding="utf-8", errors="replace"):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if words[0] not in ("deb", "deb-src"):
            continue
        rest = words[1:]
        opts = []
        if rest and rest[0].startswith("["):
            while rest:
                w = rest.pop(0)
                opts.append(w)
                if w.endswith("]"):
                    break
        if len(rest) < 2 or retarget(rest[1]) is None:
            continue
        rest[1] = retarget(rest[1])
        one_line.append(" ".join(["deb-src"] + opts + rest))

def read_sources(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    for para in text.split("\n\n"):
        fields = []          # [name, value-lines]
        for line in para.split("\n"):
            if not line.strip() or line.startswith("#"):
                continue
            if line[0] in " \t" and fields:
                fields[-1][1].append(line)
            elif ":" in line:
                name, value = line.split(":", 1)
                fields.append([name.strip(), [value.strip()]])
        get = {n.lower(): v for n, v in fields}
        types = " ".join(get.get("types", [""])).split()
        if not ({"deb", "deb-src"} & set(types)):
            continue
        if " ".join(get.get("enabled", ["yes"])).strip().lower() == "no":
            continue
        suites = [retarget(s) for s in " ".join(get.get("suites", [""])).split()]
        suites = [s for s in suites if s]
        if not suites:
            continue
        out = []
        for name, value in fields:
            if name.lower() == "types":
                value = ["deb-src"]
            elif name.lower() == "suites":
                value = [" ".join(suites)]
            out.append(name + ": " + value[0] + "".join("\n" + v for v in value[1:]))
        stanzas.append("\n".join(out))

if os.path.isfile(sys_list):
    read_list(sys_list)
for path in sorted(glob.glob(os.path.join(sys_parts, "*.list"))):
    read_list(path)
for path in sorted(glob.glob(os.path.join(sys_parts, "*.sources"))):
    read_sources(path)

one_line = list(dict.fromkeys(one_line))
stanzas = list(dict.fromkeys(stanzas))
if not one_line and not stanzas:
    sys.exit("no apt sources for release '%s' found in %s or %s" % (codename, sys_list, sys_parts))
if one_line:
    open(os.path.join(outdir, "cairn-src.list"), "w").write("\n".join(one_line) + "\n")
if stanzas:
    open(os.path.join(outdir, "cairn-src.sources"), "w").write("\n\n".join(stanzas) + "\n")
PY
}

apt_update() {   # apt_update RELEASE
  use_apt "$1"
  write_apt_sources "$1" || die "could not derive deb-src entries for $1 from the system apt sources"
  run_logged "apt-update-$1" apt-get "${APT_OPTS[@]}" update -qq
}

# versions_of PKG: the versions of source package PKG that apt serves (for the
# release selected by use_apt), newest first.
versions_of() {
  apt-cache "${APT_OPTS[@]}" showsrc --only-source "$1" 2>/dev/null |
    awk '/^Version: /{print $2}' | sort -u |
    python3 -c '
import functools, subprocess, sys
vs = [l.strip() for l in sys.stdin if l.strip()]
def cmp(a, b):
    if a == b: return 0
    return -1 if subprocess.call(["dpkg", "--compare-versions", a, "lt", b]) == 0 else 1
print("\n".join(sorted(vs, key=functools.cmp_to_key(cmp), reverse=True)))'
}

# dsc_file DSC REGEX: "sha256 name" of the file listed in DSC whose name matches REGEX.
dsc_file() {
  awk -v re="$2" '
    /^Checksums-Sha256:/ {on=1; next}
    /^[^ ]/ {on=0}
    on && $3 ~ re {print $1, $3; exit}' "$1"
}

# download PKG VERSION DIR: apt-get source --download-only into DIR.
download() {
  mkdir -p "$3"
  run_logged apt-source in_dir "$3" apt-get "${APT_OPTS[@]}" source --download-only -qq "$1=$2"
}
# try_download PKG VERSION DIR: as download, but only reports failure (some
# mirrors list a version in the index before they serve its files).
try_download() {
  mkdir -p "$3"
  (cd "$3" && apt-get "${APT_OPTS[@]}" source --download-only -qq "$1=$2") >>"$LOGDIR/apt-source.log" 2>&1
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# ---------------------------------------------------------------- update-pins
if [[ $mode == update-pins ]]; then
  echo "vendor: asking apt for the newest Debian sources (release ${PIN[DEBIAN_RELEASE]})"
  tmp=$(mktemp -d "$cache/pins.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  LOGDIR=$tmp/logs
  declare -A NEW=()
  for rel in $RELEASES; do apt_update "$rel"; done
  for p in "${PACKAGES[@]}"; do
    K=${p%%:*} pkg=${p#*:}
    use_apt "$(release_of "$K")"
    picked=
    for ver in $(versions_of "$pkg"); do
      if try_download "$pkg" "$ver" "$tmp/$K"; then picked=$ver; break; fi
      echo "vendor: WARNING: apt lists $pkg $ver but its files cannot be downloaded; trying the next older version"
    done
    [[ -n $picked ]] || die "apt serves no downloadable source package '$pkg' for $(release_of "$K")"
    NEW[${K}_DEBIAN_VERSION]=$picked
    dsc=$tmp/$K/${pkg}_${picked#*:}.dsc
    for part in ORIG:'\.orig\.tar\.[a-z0-9]+$' DEBIAN:'\.debian\.tar\.[a-z0-9]+$'; do
      read -r sum name < <(dsc_file "$dsc" "${part#*:}") || die "$pkg: no ${part%%:*} tarball in $dsc"
      [[ $(sha256_of "$tmp/$K/$name") == "$sum" ]] || die "$name does not match its .dsc"
      NEW[${K}_${part%%:*}_SHA256]=$sum
    done
  done
  changed=0 upstream_changed=0
  for key in $(printf '%s\n' "${!NEW[@]}" | sort); do
    [[ ${PIN[$key]} == "${NEW[$key]}" ]] && continue
    changed=1
    [[ $key == *_ORIG_SHA256 ]] && upstream_changed=1
    echo "vendor: $key: ${PIN[$key]} -> ${NEW[$key]}"
    sed -i "s|^$key=.*|$key=${NEW[$key]}|" "$pins_file"
  done
  if (( upstream_changed )); then
    echo "vendor: WARNING: an UPSTREAM tarball changed: check it against the upstream release's published checksum before committing"
  fi
  if (( changed )); then
    echo "vendor: vendor/pins updated; review 'git diff vendor/pins', rebuild, run the tests, commit"
  else
    echo "vendor: pins already match what apt serves"
  fi
  exit 0
fi

# ---------------------------------------------------------------- cached?
out=$cache/$mode
stamp=$out/.stamp
want_stamp=$(for p in "${PACKAGES[@]}"; do echo "${p#*:} $(deb_of "${p%%:*}")"; done
             echo "recipe $recipe_id")
libs=(libz.a libnghttp2.a libmbedtls.a libmbedx509.a libmbedcrypto.a libcurl.a
      libprotobuf-c.a libinih.a)
headers=(zlib.h nghttp2/nghttp2.h mbedtls/ssl.h psa/crypto.h curl/curl.h
         protobuf-c/protobuf-c.h inih/ini.h)
cached() {
  [[ -f $stamp && $(<"$stamp") == "$want_stamp" ]] || return 1
  local l; for l in "${libs[@]}"; do [[ -f $out/lib/$l ]] || return 1; done
  for l in "${headers[@]}"; do [[ -f $out/include/$l ]] || return 1; done
}
summary() { local p; for p in "${PACKAGES[@]}"; do printf '%s %s, ' "${p#*:}" "$(up_of "${p%%:*}")"; done | sed 's/, $//'; }
if cached; then
  touch "$stamp"   # so a make rule on the stamp sees it newer than vendor/pins
  echo "vendor: $mode cached ($(summary))"
  exit 0
fi
# Not (validly) built: start this flavour from scratch; the stamp is written last.
build=$cache/$mode.build
rm -rf "$out" "$build"
mkdir -p "$out/logs"
LOGDIR=$out/logs
start=$SECONDS

command -v "$CC_CMD" >/dev/null || die "$CC_CMD not found (run scripts/bootstrap)"
for tool in apt-get dpkg-source python3 make cmake; do
  command -v "$tool" >/dev/null || die "$tool not found (run scripts/bootstrap)"
done

# ---------------------------------------------------------------- sources
SRC=$cache/src
src_dir() { echo "$SRC/${1}-$(up_of "$2")"; }   # src_dir PKG KEY
src_stamp=$(for p in "${PACKAGES[@]}"; do K=${p%%:*}
  echo "${p#*:} $(release_of "$K") $(deb_of "$K") ${PIN[${K}_ORIG_SHA256]} ${PIN[${K}_DEBIAN_SHA256]}"; done)

# verify_and_unpack PKG VERSION KEY DLDIR DEST
verify_and_unpack() {
  local pkg=$1 ver=$2 key=$3 dl=$4 dest=$5 dsc sum name got part
  dsc=$dl/${pkg}_${ver#*:}.dsc
  [[ -f $dsc ]] || die "$pkg: apt did not deliver $(basename "$dsc")"
  for part in ORIG:'\.orig\.tar\.[a-z0-9]+$' DEBIAN:'\.debian\.tar\.[a-z0-9]+$'; do
    read -r sum name < <(dsc_file "$dsc" "${part#*:}") || die "$pkg: no ${part%%:*} tarball in $dsc"
    got=$(sha256_of "$dl/$name")
    if [[ $got != "${PIN[${key}_${part%%:*}_SHA256]}" ]]; then
      die "$pkg: SHA-256 mismatch for $name
  pinned: ${PIN[${key}_${part%%:*}_SHA256]}
  got:    $got
refusing to build; see docs/vendor.md"
    fi
  done
  # dpkg-source checks the tarballs against the .dsc and applies debian/patches.
  rm -rf "$dest"
  run_logged dpkg-source dpkg-source --no-copy -x "$dsc" "$dest"
}

# check_newest PKG KEY: stop when apt serves a newer, downloadable version
# than the pin (a new Debian revision usually carries a security fix).
check_newest() {
  local pkg=$1 K=$2 ver newest
  ver=$(deb_of "$K")
  use_apt "$(release_of "$K")"
  local found=0
  for newest in $(versions_of "$pkg"); do
    [[ $newest == "$ver" ]] && { found=1; break; }
    dpkg --compare-versions "$newest" gt "$ver" || continue
    if try_download "$pkg" "$newest" "$SRC/probe"; then
      die "Debian now serves $pkg $newest, but vendor/pins pins $pkg $ver.
  Newer Debian revisions usually carry security fixes. Update the pins deliberately:
    vendor/fetch-build.sh update-pins && git diff vendor/pins
  then rebuild, run the tests and commit vendor/pins (see docs/vendor.md)."
    fi
    echo "vendor: WARNING: apt lists $pkg $newest (newer than the pinned $ver) but its files cannot be downloaded; building $ver" >&2
  done
  (( found )) || die "vendor/pins pins $pkg $ver, but apt ($(release_of "$K")) does not serve it; fix vendor/pins (see docs/vendor.md)"
}

prepare_sources() {
  local p K pkg ok=1
  for p in "${PACKAGES[@]}"; do
    [[ -d $(src_dir "${p#*:}" "${p%%:*}") ]] || ok=0
  done
  if (( ok )) && [[ -f $SRC/.stamp && $(<"$SRC/.stamp") == "$src_stamp" ]]; then
    return
  fi
  echo "vendor: fetching Debian sources: $(for p in "${PACKAGES[@]}"; do printf '%s %s (%s) ' "${p#*:}" "$(deb_of "${p%%:*}")" "$(release_of "${p%%:*}")"; done)"
  rm -rf "$SRC"
  mkdir -p "$SRC"
  local rel
  for rel in $RELEASES; do apt_update "$rel"; done
  local dl=$SRC/download
  for p in "${PACKAGES[@]}"; do
    K=${p%%:*} pkg=${p#*:}
    check_newest "$pkg" "$K"
    download "$pkg" "$(deb_of "$K")" "$dl"
    verify_and_unpack "$pkg" "$(deb_of "$K")" "$K" "$dl" "$(src_dir "$pkg" "$K")"
  done
  rm -rf "$SRC/probe"
  printf '%s\n' "$src_stamp" >"$SRC/.stamp"
  rm -rf "$APT_ROOT"   # ~60 MB of indexes, only needed to fetch
}
prepare_sources

# ---------------------------------------------------------------- build
JOBS=$(nproc 2>/dev/null || echo 2)
# -ffile-prefix-map: no build path in the libraries (nghttp2's assert()
# messages carry __FILE__), so a build in another directory is byte-identical.
CFLAGS_COMMON="-O2 -ffunction-sections -fdata-sections -fstack-protector-strong -ffile-prefix-map=$top=."
AR_CMD=${CROSS_AR:-ar}
# Cross builds: configure scripts get --host, CMake a target system.
HOST_FLAG=() CMAKE_CROSS=()
if [[ -n $CROSS ]]; then
  HOST_FLAG=(--host="$CROSS")
  CMAKE_CROSS=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$CROSS_CPU")
fi

stage=$build/stage
mkdir -p "$stage/include" "$stage/lib" "$build/no-pkgconfig"
step() { echo "vendor: building $1 $(up_of "$2") for $mode"; }

# zlib: the static library only, with its own configure.
step zlib ZLIB
cp -a "$(src_dir zlib ZLIB)" "$build/zlib"
run_logged zlib-configure in_dir "$build/zlib" env CC="$CC_CMD" AR="$AR_CMD" \
  CFLAGS="$CFLAGS_COMMON" ./configure --static --prefix="$stage"
run_logged zlib-make make -C "$build/zlib" -j"$JOBS" libz.a
cp "$build/zlib/libz.a" "$stage/lib/"
cp "$build/zlib/zlib.h" "$build/zlib/zconf.h" "$stage/include/"

# nghttp2: the library only (Debian's tarball is a git snapshot without
# configure; upstream's CMake build needs no generated autotools files).
step nghttp2 NGHTTP2
run_logged nghttp2-cmake cmake -S "$(src_dir nghttp2 NGHTTP2)" -B "$build/nghttp2" \
  -DCMAKE_C_COMPILER="$CC_CMD" -DCMAKE_AR="$(command -v $AR_CMD)" ${CMAKE_CROSS[@]+"${CMAKE_CROSS[@]}"} \
  -DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS="$CFLAGS_COMMON" \
  -DCMAKE_INSTALL_PREFIX="$stage" -DCMAKE_INSTALL_LIBDIR=lib \
  -DENABLE_LIB_ONLY=ON -DBUILD_SHARED_LIBS=OFF -DBUILD_STATIC_LIBS=ON \
  -DBUILD_TESTING=OFF -DENABLE_DOC=OFF -DENABLE_FAILMALLOC=OFF -DENABLE_HTTP3=OFF
run_logged nghttp2-make cmake --build "$build/nghttp2" -j"$JOBS"
run_logged nghttp2-install cmake --install "$build/nghttp2"

# mbedTLS: the library only, with its own Makefile.
step mbedtls MBEDTLS
cp -a "$(src_dir mbedtls MBEDTLS)" "$build/mbedtls"
m=$build/mbedtls
# Thread-safe shared contexts (as Debian's build).
run_logged mbedtls-config in_dir "$m" python3 scripts/config.py set MBEDTLS_THREADING_C
run_logged mbedtls-config in_dir "$m" python3 scripts/config.py set MBEDTLS_THREADING_PTHREAD
# TLS 1.2 and 1.3 must both be on (1.3 needs PSA crypto: psa_crypto_init()).
for opt in MBEDTLS_SSL_PROTO_TLS1_2 MBEDTLS_SSL_PROTO_TLS1_3 MBEDTLS_PSA_CRYPTO_C \
           MBEDTLS_SSL_CLI_C MBEDTLS_X509_CRT_PARSE_C MBEDTLS_FS_IO \
           MBEDTLS_SSL_SERVER_NAME_INDICATION MBEDTLS_SSL_ALPN MBEDTLS_VERSION_C; do
  (cd "$m" && python3 scripts/config.py get "$opt" >/dev/null) || die "mbedtls: $opt is not enabled"
done
run_logged mbedtls-make make -C "$m/library" -j"$JOBS" \
  CC="$CC_CMD" AR="$AR_CMD" CFLAGS="$CFLAGS_COMMON" static
cp -a "$m/include/mbedtls" "$m/include/psa" "$stage/include/"
cp "$m"/library/libmbed{tls,x509,crypto}.a "$stage/lib/"

# libcurl: HTTP(S) with HTTP/2 (nghttp2) and gzip/deflate (zlib), mbedTLS,
# no CA bundle/path compiled in.
step curl CURL
mkdir -p "$build/curl"
curl_flags=(
  --prefix="$stage" ${HOST_FLAG[@]+"${HOST_FLAG[@]}"}
  --disable-shared --enable-static
  --disable-dependency-tracking --disable-silent-rules
  --with-mbedtls="$stage"   # adds -I$stage/include -L$stage/lib
  --with-nghttp2="$stage" --with-zlib="$stage"
  --without-ca-bundle --without-ca-path --without-ca-fallback
  --enable-http --enable-ipv6 --enable-proxy --enable-cookies
  --enable-threaded-resolver
  --disable-ftp --disable-file --disable-ldap --disable-ldaps --disable-rtsp
  --disable-dict --disable-telnet --disable-tftp --disable-pop3 --disable-imap
  --disable-smb --disable-smtp --disable-gopher --disable-mqtt --disable-ipfs
  --disable-manual --disable-docs --disable-libcurl-option --disable-ntlm
  --disable-tls-srp --disable-alt-svc --disable-hsts --disable-websockets
  --disable-sspi --disable-ech --disable-aws --disable-kerberos-auth
  --disable-negotiate-auth --disable-httpsrr
  --without-brotli --without-zstd --without-libpsl --without-libidn2
  --without-ngtcp2 --without-nghttp3 --without-quiche --without-msh3
  --without-openssl-quic --without-librtmp --without-libssh2 --without-libssh
  --without-wolfssh --without-libgsasl --without-gssapi --without-apple-idn
  --without-winidn --without-zsh-functions-dir --without-fish-functions-dir
)
run_logged curl-configure in_dir "$build/curl" env \
  CC="$CC_CMD" AR="$AR_CMD" CFLAGS="$CFLAGS_COMMON" \
  PKG_CONFIG_LIBDIR="$build/no-pkgconfig" \
  "$(src_dir curl CURL)/configure" "${curl_flags[@]}"
cfg=$build/curl/lib/curl_config.h
for def in USE_MBEDTLS USE_NGHTTP2 HAVE_LIBZ; do
  grep -q "^#define $def 1" "$cfg" || die "curl: configure did not enable $def (see $LOGDIR/curl-configure.log)"
done
if grep -Eq '^#define (CURL_CA_BUNDLE|CURL_CA_PATH) ' "$cfg"; then
  die "curl: a CA bundle/path got compiled in"
fi
run_logged curl-make make -C "$build/curl/lib" -j"$JOBS"
run_logged curl-install make -C "$build/curl/lib" install
run_logged curl-install make -C "$build/curl/include" install
sh "$build/curl/curl-config" --static-libs >"$LOGDIR/curl-static-libs.txt" 2>&1 || true

# protobuf-c: the runtime library only; the code generator (protoc-c) comes
# from Debian's binary package protobuf-c-compiler (scripts/bootstrap), whose
# version matches this source (see docs/vendor.md).
step protobuf-c PROTOBUF_C
mkdir -p "$build/protobuf-c"
run_logged protobuf-c-configure in_dir "$build/protobuf-c" env \
  CC="$CC_CMD" AR="$AR_CMD" CFLAGS="$CFLAGS_COMMON" \
  PKG_CONFIG_LIBDIR="$build/no-pkgconfig" \
  "$(src_dir protobuf-c PROTOBUF_C)/configure" --prefix="$stage" ${HOST_FLAG[@]+"${HOST_FLAG[@]}"} \
  --disable-shared --enable-static --disable-protoc --disable-dependency-tracking
run_logged protobuf-c-make make -C "$build/protobuf-c" -j"$JOBS"
run_logged protobuf-c-install make -C "$build/protobuf-c" install

# inih: one file.  Its options are compile-time defaults of Debian's runtime
# switches (debian/patches/0002-Add-runtime-options.patch); the installed
# inih/ini.h starts with the same defines, so cairn sees what was built.
step inih INIH
INIH_DEFS=(
  -DINI_HANDLER_LINENO=1        # the handler gets the line number (as Debian's build)
  -DINI_USE_STACK=0             # heap line buffer that grows ...
  -DINI_ALLOW_REALLOC=1
  -DINI_MAX_LINE=65536          # ... up to this; callers may raise ini_max_line
  -DINI_INITIAL_ALLOC=256
  -DINI_STOP_ON_FIRST_ERROR=0   # parse on after a bad line
  -DINI_ALLOW_BOM=1 -DINI_ALLOW_MULTILINE=1
  -DINI_ALLOW_INLINE_COMMENTS=1 "-DINI_INLINE_COMMENT_PREFIXES=\";\""
  "-DINI_START_COMMENT_PREFIXES=\";#\"" -DINI_ALLOW_NO_VALUE=0
)
mkdir -p "$build/inih" "$stage/include/inih"
# inih's ini_parse(filename, ...) is renamed inih_parse: cairn's own ini
# module (core/config/ini.h, the wrapper) owns the ini_parse name.
run_logged inih-make "$CC_CMD" $CFLAGS_COMMON "${INIH_DEFS[@]}" -Dini_parse=inih_parse \
  -c "$(src_dir libinih INIH)/ini.c" -o "$build/inih/ini.o"
run_logged inih-make "$AR_CMD" rcs "$stage/lib/libinih.a" "$build/inih/ini.o"
{
  echo "/* Generated by vendor/fetch-build.sh: the options libinih.a was built with. */"
  for d in "${INIH_DEFS[@]}"; do
    d=${d#-D}; echo "#define ${d%%=*} ${d#*=}"
  done
  sed 's/\<int ini_parse(/int inih_parse(/' "$(src_dir libinih INIH)/ini.h"
} >"$stage/include/inih/ini.h"
grep -q 'int inih_parse(' "$stage/include/inih/ini.h" || die "inih: could not rename ini_parse in ini.h"

# Publish: headers + static libraries only, then the stamp.
rm -rf "$stage/include/curl/"*.in "$stage/include/libprotobuf-c" 2>/dev/null || true
mv "$stage/include" "$out/include"
mkdir -p "$out/lib"
for l in "${libs[@]}"; do
  [[ -f $stage/lib/$l ]] || die "missing $l after the build"
  cp "$stage/lib/$l" "$out/lib/$l"
done
for l in "${headers[@]}"; do
  [[ -f $out/include/$l ]] || die "missing include/$l after the build"
done
rm -rf "$build"
printf '%s\n' "$want_stamp" >"$stamp.tmp"
mv "$stamp.tmp" "$stamp"
echo "vendor: built $(summary) for $mode"
echo "vendor: $mode took $((SECONDS - start))s"
