/*
** cmd_version.c: `cairn version [-json]`.
**
** Prints cairn's version, the Terraform language version it implements
** (terraform_version in -json, what tools and required_version gates
** compare against), the platform, and the versions of the TLS and HTTP
** libraries linked into the binary (useful when auditing an air-gapped
** install).
*/
#include <curl/curl.h>
#include <mbedtls/version.h>
#include <string.h>

#include "cli.h"
#include "config/config.h"

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
  if (json) {
    cli_out(cli,
            "{\n"
            "  \"cairn_version\": \"%s\",\n"
            "  \"terraform_version\": \"%s\",\n"
            "  \"platform\": \"%s\",\n"
            "  \"provider_selections\": {},\n"
            "  \"terraform_outdated\": false,\n"
            "  \"libcurl_version\": \"%s\",\n"
            "  \"mbedtls_version\": \"%s\"\n"
            "}\n",
            CAIRN_VERSION, CFG_TERRAFORM_VERSION, PLATFORM, cv->version,
            mbed);
  } else {
    cli_out(cli, "cairn v%s\non %s\n+ libcurl %s\n+ mbedTLS %s\n",
            CAIRN_VERSION, PLATFORM, cv->version, mbed);
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
