/*
** cmd_version.c: `cairn version [-json]`.
**
** Prints cairn's version, the platform, and the versions of the vendored
** libraries (useful when auditing an air-gapped install): what the linked
** libraries report at run time, and the Debian source package each was
** built from (vendor/pins, through build/gen/vendor_pins.h).  inih has no
** version function and protobuf-c's is read from its header, so that this
** command does not link a library the binary does not otherwise use.
*/
#include <curl/curl.h>
#include <mbedtls/version.h>
#include <protobuf-c/protobuf-c.h>
#include <string.h>
/* Generated from vendor/pins by the Makefile (build/gen/, on the include
** path), hence the angle brackets. */
#include <vendor_pins.h>

#include "cli.h"

#if defined(__x86_64__)
#define PLATFORM "linux_amd64"
#elif defined(__aarch64__)
#define PLATFORM "linux_arm64"
#elif defined(__arm__)
#define PLATFORM "linux_arm"
#elif defined(__i386__)
#define PLATFORM "linux_386"
#else
#define PLATFORM "linux_unknown"
#endif

static int run(Cli *cli, int argc, char **argv)
{
  bool json = false;
  CliFlag flags[] = {{"json", FLAG_BOOL, &json}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags, 1, &rest, &d)) {
    cli_diags(cli, &d);
    return 2;
  }
  char mbed[32] = "";
  mbedtls_version_get_string(mbed);
  const curl_version_info_data *cv = curl_version_info(CURLVERSION_NOW);
  const char *h2 = cv->nghttp2_version ? cv->nghttp2_version : "none";
  const char *z = cv->libz_version ? cv->libz_version : "none";
  if (json) {
    cli_out(cli,
            "{\n"
            "  \"cairn_version\": \"%s\",\n"
            "  \"terraform_version\": \"%s\",\n"
            "  \"platform\": \"%s\",\n"
            "  \"provider_selections\": {},\n"
            "  \"terraform_outdated\": false,\n"
            "  \"libcurl_version\": \"%s\",\n"
            "  \"mbedtls_version\": \"%s\",\n"
            "  \"nghttp2_version\": \"%s\",\n"
            "  \"zlib_version\": \"%s\",\n"
            "  \"inih_version\": \"%s\",\n"
            "  \"protobuf_c_version\": \"%s\",\n"
            "  \"debian_sources\": {\n"
            "    \"curl\": \"%s\",\n"
            "    \"mbedtls\": \"%s\",\n"
            "    \"nghttp2\": \"%s\",\n"
            "    \"zlib\": \"%s\",\n"
            "    \"libinih\": \"%s\",\n"
            "    \"protobuf-c\": \"%s\"\n"
            "  }\n"
            "}\n",
            CAIRN_VERSION, CAIRN_VERSION, PLATFORM, cv->version, mbed, h2, z,
            VENDOR_INIH_VERSION, PROTOBUF_C_VERSION, VENDOR_CURL_DEBIAN,
            VENDOR_MBEDTLS_DEBIAN, VENDOR_NGHTTP2_DEBIAN, VENDOR_ZLIB_DEBIAN,
            VENDOR_INIH_DEBIAN, VENDOR_PROTOBUF_C_DEBIAN);
  } else {
    cli_out(cli,
            "cairn v%s\non %s\n"
            "+ libcurl %s (Debian %s)\n"
            "+ mbedTLS %s (Debian %s)\n"
            "+ nghttp2 %s (Debian %s)\n"
            "+ zlib %s (Debian %s)\n"
            "+ inih r%s (Debian libinih %s)\n"
            "+ protobuf-c %s (Debian %s)\n",
            CAIRN_VERSION, PLATFORM, cv->version, VENDOR_CURL_DEBIAN, mbed,
            VENDOR_MBEDTLS_DEBIAN, h2, VENDOR_NGHTTP2_DEBIAN, z,
            VENDOR_ZLIB_DEBIAN, VENDOR_INIH_VERSION, VENDOR_INIH_DEBIAN,
            PROTOBUF_C_VERSION, VENDOR_PROTOBUF_C_DEBIAN);
  }
  return 0;
}

const CmdEntry cmd_version = {
    "version",
    "Show the current cairn version",
    "Usage: cairn [global options] version [options]\n\n"
    "  Displays the version of cairn, the platform it was built for, and\n"
    "  the versions of the libraries linked into it.\n\n"
    "Options:\n\n"
    "  -json       Output the version information as a JSON object.\n",
    run,
    false,
};
