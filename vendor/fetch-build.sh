#!/usr/bin/env bash
# Build cairn's third-party static libraries (mbedTLS + libcurl) from Debian's
# source packages, with Debian's patches applied.  See docs/vendor.md.
#
#   vendor/fetch-build.sh musl         build .cache/vendor/musl/{include,lib}  (CC=musl-gcc)
#   vendor/fetch-build.sh host         build .cache/vendor/host/{include,lib}  (CC=cc)
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
case $mode in
  musl) CC_CMD=musl-gcc ;;
  host) CC_CMD=cc ;;
  update-pins) ;;
  *) echo "usage: $0 musl|host|update-pins" >&2; exit 2 ;;
esac

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
      MBEDTLS_DEBIAN_VERSION|CURL_DEBIAN_VERSION) [[ $val =~ ^[0-9][A-Za-z0-9.+~:-]*$ ]] ;;
      *_SHA256) [[ $val =~ ^[0-9a-f]{64}$ ]] ;;
      *) false ;;
    esac || die "$pins_file: bad entry '$line'"
    PIN[$key]=$val
  done <"$pins_file"
  for key in MBEDTLS_DEBIAN_VERSION MBEDTLS_ORIG_SHA256 MBEDTLS_DEBIAN_SHA256 \
             CURL_DEBIAN_VERSION CURL_ORIG_SHA256 CURL_DEBIAN_SHA256; do
    [[ -n ${PIN[$key]:-} ]] || die "$pins_file: $key missing"
  done
}
read_pins

upstream_of() { local v=${1#*:}; echo "${v%-*}"; }   # strip epoch and Debian revision
MBEDTLS_DEB=${PIN[MBEDTLS_DEBIAN_VERSION]}
CURL_DEB=${PIN[CURL_DEBIAN_VERSION]}
MBEDTLS_UP=$(upstream_of "$MBEDTLS_DEB")
CURL_UP=$(upstream_of "$CURL_DEB")

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
# A private apt configuration with deb-src entries derived from the system's
# own apt sources; the system's configuration and lists are never modified.
APT_DIR=$cache/apt
APT_OPTS=(
  -o "Dir::Etc::SourceList=$APT_DIR/sources.list"
  -o "Dir::Etc::SourceParts=$APT_DIR/sources.list.d"
  -o "Dir::State::Lists=$APT_DIR/lists"
  -o "Dir::Cache=$APT_DIR/cache"
  -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
  -o "Acquire::Languages=none"
)
if (( $(id -u) == 0 )); then APT_OPTS+=(-o "APT::Sandbox::User=root"); fi

write_apt_sources() {
  local sys_list sys_parts codename=
  eval "$(apt-config shell sys_list Dir::Etc::SourceList/f sys_parts Dir::Etc::SourceParts/d)"
  # shellcheck disable=SC1091
  [[ -r /etc/os-release ]] && codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  rm -rf "$APT_DIR"
  mkdir -p "$APT_DIR/sources.list.d" "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
  : >"$APT_DIR/sources.list"
  python3 - "$codename" "$APT_DIR/sources.list.d" "$sys_list" "$sys_parts" <<'PY'
import glob, os, sys
codename, outdir, sys_list, sys_parts = sys.argv[1:5]

def suite_ok(s):
    # keep only this release's suites (bookworm, bookworm-updates, bookworm-security...)
    return not codename or s == codename or s.startswith(codename + "-")

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
        if len(rest) < 2 or not suite_ok(rest[1]):
            continue
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
        suites = [s for s in " ".join(get.get("suites", [""])).split() if suite_ok(s)]
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

apt_update() {
  write_apt_sources || die "could not derive deb-src entries from the system apt sources"
  run_logged apt-update apt-get "${APT_OPTS[@]}" update -qq
}

# newest_source PKG: the newest version of source package PKG that apt serves.
newest_source() {
  local v newest=
  for v in $(apt-cache "${APT_OPTS[@]}" showsrc --only-source "$1" 2>/dev/null |
             awk '/^Version: /{print $2}'); do
    if [[ -z $newest ]] || dpkg --compare-versions "$v" gt "$newest"; then newest=$v; fi
  done
  [[ -n $newest ]] || die "apt serves no source package '$1' (see $LOGDIR/apt-update.log)"
  echo "$newest"
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

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# ---------------------------------------------------------------- update-pins
if [[ $mode == update-pins ]]; then
  echo "vendor: asking apt for the newest Debian sources"
  apt_update
  tmp=$(mktemp -d "$cache/pins.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  new_m=$(newest_source mbedtls); new_c=$(newest_source curl)
  download mbedtls "$new_m" "$tmp"
  download curl "$new_c" "$tmp"
  declare -A NEW=([MBEDTLS_DEBIAN_VERSION]=$new_m [CURL_DEBIAN_VERSION]=$new_c)
  for p in MBEDTLS:mbedtls:$new_m CURL:curl:$new_c; do
    IFS=: read -r K pkg ver <<<"$p"
    dsc=$tmp/${pkg}_${ver#*:}.dsc
    read -r sum name < <(dsc_file "$dsc" '\.orig\.tar\.[a-z0-9]+$')
    [[ $(sha256_of "$tmp/$name") == "$sum" ]] || die "$name does not match its .dsc"
    NEW[${K}_ORIG_SHA256]=$sum
    read -r sum name < <(dsc_file "$dsc" '\.debian\.tar\.[a-z0-9]+$')
    [[ $(sha256_of "$tmp/$name") == "$sum" ]] || die "$name does not match its .dsc"
    NEW[${K}_DEBIAN_SHA256]=$sum
  done
  changed=0
  for key in "${!NEW[@]}"; do
    [[ ${PIN[$key]} == "${NEW[$key]}" ]] && continue
    changed=1
    echo "vendor: $key: ${PIN[$key]} -> ${NEW[$key]}"
    sed -i "s|^$key=.*|$key=${NEW[$key]}|" "$pins_file"
  done
  if [[ ${PIN[MBEDTLS_ORIG_SHA256]} != "${NEW[MBEDTLS_ORIG_SHA256]}" ||
        ${PIN[CURL_ORIG_SHA256]} != "${NEW[CURL_ORIG_SHA256]}" ]]; then
    echo "vendor: WARNING: an UPSTREAM tarball changed: check it against the upstream release's published checksum before committing"
  fi
  if (( changed )); then
    echo "vendor: vendor/pins updated; review 'git diff vendor/pins', rebuild, run the tests, commit"
  else
    echo "vendor: pins already match what apt serves (mbedtls $new_m, curl $new_c)"
  fi
  exit 0
fi

# ---------------------------------------------------------------- cached?
out=$cache/$mode
stamp=$out/.stamp
want_stamp="mbedtls $MBEDTLS_DEB
curl $CURL_DEB
recipe $recipe_id"
libs=(libmbedtls.a libmbedx509.a libmbedcrypto.a libcurl.a)
cached() {
  [[ -f $stamp && $(<"$stamp") == "$want_stamp" ]] || return 1
  local l; for l in "${libs[@]}"; do [[ -f $out/lib/$l ]] || return 1; done
  [[ -f $out/include/curl/curl.h && -f $out/include/mbedtls/ssl.h ]]
}
if cached; then
  touch "$stamp"   # so a make rule on the stamp sees it newer than vendor/pins
  echo "vendor: $mode cached (mbedtls $MBEDTLS_UP, curl $CURL_UP)"
  exit 0
fi
# Not (validly) built: start this flavour from scratch; the stamp is written last.
build=$cache/$mode.build
rm -rf "$out" "$build"
mkdir -p "$out/logs"
LOGDIR=$out/logs
start=$SECONDS

command -v "$CC_CMD" >/dev/null || die "$CC_CMD not found (run scripts/bootstrap)"
for tool in apt-get dpkg-source python3 make; do
  command -v "$tool" >/dev/null || die "$tool not found (run scripts/bootstrap)"
done

# ---------------------------------------------------------------- sources
SRC=$cache/src
MBEDTLS_SRC=$SRC/mbedtls-$MBEDTLS_UP
CURL_SRC=$SRC/curl-$CURL_UP
src_stamp="mbedtls $MBEDTLS_DEB ${PIN[MBEDTLS_ORIG_SHA256]} ${PIN[MBEDTLS_DEBIAN_SHA256]}
curl $CURL_DEB ${PIN[CURL_ORIG_SHA256]} ${PIN[CURL_DEBIAN_SHA256]}"

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

prepare_sources() {
  if [[ -f $SRC/.stamp && $(<"$SRC/.stamp") == "$src_stamp" &&
        -d $MBEDTLS_SRC && -d $CURL_SRC ]]; then
    return
  fi
  echo "vendor: fetching Debian sources mbedtls $MBEDTLS_DEB, curl $CURL_DEB"
  rm -rf "$SRC"
  mkdir -p "$SRC"
  apt_update
  local pkg ver newest
  for pkg in mbedtls:$MBEDTLS_DEB curl:$CURL_DEB; do
    ver=${pkg#*:} pkg=${pkg%%:*}
    newest=$(newest_source "$pkg")
    if [[ $newest != "$ver" ]]; then
      if dpkg --compare-versions "$newest" gt "$ver"; then
        die "Debian now serves $pkg $newest, but vendor/pins pins $pkg $ver.
  Newer Debian revisions usually carry security fixes. Update the pins deliberately:
    vendor/fetch-build.sh update-pins && git diff vendor/pins
  then rebuild, run the tests and commit vendor/pins (see docs/vendor.md)."
      fi
      die "vendor/pins pins $pkg $ver, but apt only serves $newest; fix vendor/pins (see docs/vendor.md)"
    fi
  done
  local dl=$SRC/download
  download mbedtls "$MBEDTLS_DEB" "$dl"
  download curl "$CURL_DEB" "$dl"
  verify_and_unpack mbedtls "$MBEDTLS_DEB" MBEDTLS "$dl" "$MBEDTLS_SRC"
  verify_and_unpack curl "$CURL_DEB" CURL "$dl" "$CURL_SRC"
  # Debian's curl series ends with two patches that turn the tree into the
  # GnuTLS / NSS flavours (libcurl-gnutls, libcurl-nss); debian/rules pops
  # them for the default flavour, and so do we.
  local p
  for p in 99_nss.patch 90_gnutls.patch; do
    [[ -f $CURL_SRC/debian/patches/$p ]] || die "curl: expected debian/patches/$p"
    run_logged dpkg-source in_dir "$CURL_SRC" patch -R -p1 -s -i "debian/patches/$p"
  done
  printf '%s\n' "$src_stamp" >"$SRC/.stamp"
  rm -rf "$APT_DIR"   # ~20 MB of indexes, only needed to fetch
}
prepare_sources

# ---------------------------------------------------------------- build
JOBS=$(nproc 2>/dev/null || echo 2)
CFLAGS_COMMON="-O2 -ffunction-sections -fdata-sections -fstack-protector-strong"
AR_CMD="ar"

stage=$build/stage
mkdir -p "$stage/include" "$stage/lib"

# mbedTLS: the library only, with its own Makefile.
echo "vendor: building mbedtls $MBEDTLS_UP for $mode"
cp -a "$MBEDTLS_SRC" "$build/mbedtls"
m=$build/mbedtls
# Thread-safe shared contexts (as Debian's build); TLS 1.2 must be on.
run_logged mbedtls-config in_dir "$m" python3 scripts/config.py set MBEDTLS_THREADING_C
run_logged mbedtls-config in_dir "$m" python3 scripts/config.py set MBEDTLS_THREADING_PTHREAD
for opt in MBEDTLS_SSL_PROTO_TLS1_2 MBEDTLS_SSL_CLI_C MBEDTLS_X509_CRT_PARSE_C \
           MBEDTLS_FS_IO MBEDTLS_SSL_SERVER_NAME_INDICATION MBEDTLS_SSL_ALPN MBEDTLS_VERSION_C; do
  (cd "$m" && python3 scripts/config.py get "$opt" >/dev/null) || die "mbedtls: $opt is not enabled"
done
run_logged mbedtls-make make -C "$m/library" -j"$JOBS" \
  CC="$CC_CMD" AR="$AR_CMD" CFLAGS="$CFLAGS_COMMON" static
cp -a "$m/include/mbedtls" "$m/include/psa" "$stage/include/"
cp "$m"/library/libmbed{tls,x509,crypto}.a "$stage/lib/"

# libcurl: HTTP(S) only, mbedTLS, no CA bundle/path compiled in.
echo "vendor: building curl $CURL_UP for $mode"
mkdir -p "$build/curl" "$build/no-pkgconfig"
curl_flags=(
  --prefix="$stage"
  --disable-shared --enable-static
  --disable-dependency-tracking --disable-silent-rules
  --with-mbedtls="$stage"   # adds -I$stage/include -L$stage/lib
  --without-ca-bundle --without-ca-path --without-ca-fallback
  --enable-http --enable-ipv6 --enable-proxy --enable-cookies
  --enable-threaded-resolver
  --disable-ftp --disable-file --disable-ldap --disable-ldaps --disable-rtsp
  --disable-dict --disable-telnet --disable-tftp --disable-pop3 --disable-imap
  --disable-smb --disable-smtp --disable-gopher --disable-mqtt
  --disable-manual --disable-libcurl-option --disable-ntlm --disable-ntlm-wb
  --disable-tls-srp --disable-alt-svc --disable-hsts --disable-websockets
  --disable-sspi --disable-ech
  --without-zlib --without-brotli --without-zstd --without-libpsl
  --without-libidn2 --without-nghttp2 --without-ngtcp2 --without-nghttp3
  --without-quiche --without-msh3 --without-hyper --without-librtmp
  --without-libssh2 --without-libssh --without-wolfssh --without-libgsasl
  --without-zsh-functions-dir --without-fish-functions-dir
)
run_logged curl-configure in_dir "$build/curl" env \
  CC="$CC_CMD" AR="$AR_CMD" CFLAGS="$CFLAGS_COMMON" \
  PKG_CONFIG_LIBDIR="$build/no-pkgconfig" \
  "$CURL_SRC/configure" "${curl_flags[@]}"
cfg=$build/curl/lib/curl_config.h
grep -q '^#define USE_MBEDTLS 1' "$cfg" || die "curl: configure did not select mbedTLS (see $LOGDIR/curl-configure.log)"
if grep -Eq '^#define (CURL_CA_BUNDLE|CURL_CA_PATH) ' "$cfg"; then
  die "curl: a CA bundle/path got compiled in"
fi
run_logged curl-make make -C "$build/curl/lib" -j"$JOBS"
run_logged curl-install make -C "$build/curl/lib" install
run_logged curl-install make -C "$build/curl/include" install
sh "$build/curl/curl-config" --static-libs >"$LOGDIR/curl-static-libs.txt" 2>&1 || true

# Publish: headers + static libraries only, then the stamp.
mv "$stage/include" "$out/include"
mkdir -p "$out/lib"
for l in "${libs[@]}"; do
  [[ -f $stage/lib/$l ]] || die "missing $l after the build"
  cp "$stage/lib/$l" "$out/lib/$l"
done
rm -rf "$build"
printf '%s\n' "$want_stamp" >"$stamp.tmp"
mv "$stamp.tmp" "$stamp"
echo "vendor: built mbedtls $MBEDTLS_UP (Debian $MBEDTLS_DEB), curl $CURL_UP (Debian $CURL_DEB) for $mode"
echo "vendor: $mode took $((SECONDS - start))s"
