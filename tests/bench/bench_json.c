/*
** bench_json: parse throughput and peak memory of core/base/json.c on a large
** state-like document.  Not a test: scripts/bench-json builds and runs it.
**
**   bench_json --gen FILE [MB]   write a Terraform v4 state-shaped JSON
**                                document of about MB megabytes (50)
**   bench_json FILE              parse FILE 5 times, report the best time
**                                and the peak RSS relative to the input
**
** Generating and parsing are separate runs so the generator's buffers do
** not count in the parser's peak RSS.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/json.h"
#include "base/value.h"

/* Deterministic pseudo-random numbers (xorshift). */
static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void hexid(char *out, size_t n)
{
  static const char hx[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++)
    out[i] = hx[next() & 15];
  out[n] = 0;
}

static void uuid(char *out)
{
  hexid(out, 36);
  out[8] = out[13] = out[18] = out[23] = '-';
}

static void raw(JsonW *w, const char *s) { json_w_raw(w, s, strlen(s)); }

static void gen_terraform_data(JsonW *w, int r, int count)
{
  char id[40], buf[128];
  json_w_begin_object(w);
  json_w_keyz(w, "mode");
  json_w_stringz(w, "managed");
  json_w_keyz(w, "type");
  json_w_stringz(w, "terraform_data");
  json_w_keyz(w, "name");
  snprintf(buf, sizeof buf, "data_%d", r);
  json_w_stringz(w, buf);
  json_w_keyz(w, "provider");
  json_w_stringz(w, "provider[\"terraform.io/builtin/terraform\"]");
  json_w_keyz(w, "instances");
  json_w_begin_array(w);
  for (int i = 0; i < count; i++) {
    json_w_begin_object(w);
    json_w_keyz(w, "index_key");
    json_w_int(w, i);
    json_w_keyz(w, "schema_version");
    json_w_int(w, 0);
    json_w_keyz(w, "attributes");
    json_w_begin_object(w);
    json_w_keyz(w, "id");
    uuid(id);
    json_w_stringz(w, id);
    json_w_keyz(w, "input");
    json_w_begin_object(w);
    json_w_keyz(w, "value");
    json_w_begin_object(w);
    json_w_keyz(w, "count");
    json_w_int(w, (int64_t)(next() % 100000));
    json_w_keyz(w, "enabled");
    json_w_bool(w, next() & 1);
    json_w_keyz(w, "name");
    snprintf(buf, sizeof buf, "item-%d-%d", r, i);
    json_w_stringz(w, buf);
    json_w_keyz(w, "ratio");
    snprintf(buf, sizeof buf, "%d.%02d", (int)(next() % 100),
             (int)(next() % 100));
    json_w_number_lit(w, buf, strlen(buf));
    json_w_keyz(w, "tags");
    json_w_begin_array(w);
    json_w_stringz(w, "alpha");
    json_w_stringz(w, "beta");
    json_w_stringz(w, "gamma");
    json_w_end_array(w);
    json_w_end_object(w);
    json_w_keyz(w, "type");
    raw(w, "[\"object\",{\"count\":\"number\",\"enabled\":\"bool\","
                  "\"name\":\"string\",\"ratio\":\"number\","
                  "\"tags\":[\"tuple\",[\"string\",\"string\",\"string\"]]}]");
    json_w_end_object(w);
    json_w_keyz(w, "output");
    json_w_null(w);
    json_w_keyz(w, "triggers_replace");
    json_w_null(w);
    json_w_end_object(w);
    json_w_keyz(w, "sensitive_attributes");
    json_w_begin_array(w);
    json_w_end_array(w);
    json_w_keyz(w, "identity_schema_version");
    json_w_int(w, 0);
    json_w_keyz(w, "dependencies");
    json_w_begin_array(w);
    snprintf(buf, sizeof buf, "local_file.file_%d", r > 0 ? r - 1 : 0);
    json_w_stringz(w, buf);
    json_w_end_array(w);
    json_w_end_object(w);
  }
  json_w_end_array(w);
  json_w_end_object(w);
}

static void gen_local_file(JsonW *w, Buf *content, int r, int count)
{
  char buf[160], md5[48];
  json_w_begin_object(w);
  json_w_keyz(w, "mode");
  json_w_stringz(w, "managed");
  json_w_keyz(w, "type");
  json_w_stringz(w, "local_file");
  json_w_keyz(w, "name");
  snprintf(buf, sizeof buf, "file_%d", r);
  json_w_stringz(w, buf);
  json_w_keyz(w, "provider");
  json_w_stringz(w, "provider[\"registry.terraform.io/hashicorp/local\"]");
  json_w_keyz(w, "instances");
  json_w_begin_array(w);
  for (int i = 0; i < count; i++) {
    buf_clear(content);
    int lines = 1 + (int)(next() % 6);
    for (int l = 0; l < lines; l++)
      buf_printf(content, "line %d of file %d/%d: key=\"value\"\tok\n", l, r,
                 i);
    json_w_begin_object(w);
    json_w_keyz(w, "index_key");
    snprintf(buf, sizeof buf, "key-%d", i);
    json_w_stringz(w, buf);
    json_w_keyz(w, "schema_version");
    json_w_int(w, 0);
    json_w_keyz(w, "attributes");
    json_w_begin_object(w);
    json_w_keyz(w, "content");
    json_w_string(w, content->p, content->len);
    json_w_keyz(w, "content_base64");
    json_w_null(w);
    hexid(md5, 32);
    json_w_keyz(w, "content_md5");
    json_w_stringz(w, md5);
    json_w_keyz(w, "content_sha1");
    hexid(md5, 40);
    json_w_stringz(w, md5);
    json_w_keyz(w, "directory_permission");
    json_w_stringz(w, "0777");
    json_w_keyz(w, "file_permission");
    json_w_stringz(w, "0644");
    json_w_keyz(w, "filename");
    snprintf(buf, sizeof buf, "./out/files/%d/file-%d.txt", r, i);
    json_w_stringz(w, buf);
    json_w_keyz(w, "id");
    hexid(md5, 40);
    json_w_stringz(w, md5);
    json_w_keyz(w, "sensitive_content");
    json_w_null(w);
    json_w_keyz(w, "source");
    json_w_null(w);
    json_w_end_object(w);
    json_w_keyz(w, "sensitive_attributes");
    json_w_begin_array(w);
    json_w_begin_array(w);
    json_w_begin_object(w);
    json_w_keyz(w, "type");
    json_w_stringz(w, "get_attr");
    json_w_keyz(w, "value");
    json_w_stringz(w, "sensitive_content");
    json_w_end_object(w);
    json_w_end_array(w);
    json_w_end_array(w);
    json_w_keyz(w, "identity_schema_version");
    json_w_int(w, 0);
    json_w_end_object(w);
  }
  json_w_end_array(w);
  json_w_end_object(w);
}

static int gen(const char *path, double mb)
{
  Arena a;
  arena_init(&a, (size_t)1 << 20);
  Buf b, content;
  buf_init(&b, &a);
  buf_init(&content, &a);
  size_t target = (size_t)(mb * 1e6);
  buf_reserve(&b, target + target / 8);
  JsonW w;
  json_w_init(&w, &b, JSON_W_INDENT);
  json_w_begin_object(&w);
  json_w_keyz(&w, "version");
  json_w_int(&w, 4);
  json_w_keyz(&w, "terraform_version");
  json_w_stringz(&w, "1.14.0");
  json_w_keyz(&w, "serial");
  json_w_int(&w, 1234);
  json_w_keyz(&w, "lineage");
  json_w_stringz(&w, "af5a607f-9eae-15f8-afd8-9d32a8a9fc24");
  json_w_keyz(&w, "outputs");
  json_w_begin_object(&w);
  json_w_keyz(&w, "ids");
  json_w_begin_object(&w);
  json_w_keyz(&w, "value");
  json_w_begin_array(&w);
  json_w_stringz(&w, "a");
  json_w_end_array(&w);
  json_w_keyz(&w, "type");
  raw(&w, "[\"list\",\"string\"]");
  json_w_end_object(&w);
  json_w_end_object(&w);
  json_w_keyz(&w, "resources");
  json_w_begin_array(&w);
  for (int r = 0; b.len < target; r++) {
    if (r % 2)
      gen_local_file(&w, &content, r, 1 + (int)(next() % 20));
    else
      gen_terraform_data(&w, r, 1 + (int)(next() % 20));
  }
  json_w_end_array(&w);
  json_w_keyz(&w, "check_results");
  json_w_null(&w);
  json_w_end_object(&w);
  buf_putc(&b, '\n');
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(b.p, 1, b.len, f) != b.len || fclose(f) != 0) {
    fprintf(stderr, "bench_json: cannot write %s: %s\n", path,
            strerror(errno));
    return 1;
  }
  printf("generated %s: %.1f MB\n", path, (double)b.len / 1e6);
  arena_release(&a);
  return 0;
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Peak resident set in bytes (VmHWM), falling back to ru_maxrss. */
static double peak_rss(void)
{
  FILE *f = fopen("/proc/self/status", "r");
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f)) {
      if (strncmp(line, "VmHWM:", 6) == 0) {
        fclose(f);
        return strtod(line + 6, NULL) * 1024.0;
      }
    }
    fclose(f);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss * 1024.0;
}

static int run(const char *path)
{
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    fprintf(stderr, "bench_json: cannot open %s: %s\n", path,
            strerror(errno));
    return 1;
  }
  Arena in;
  arena_init(&in, 0);
  size_t len = (size_t)st.st_size;
  char *buf = arena_alloc_raw(&in, 1, 1, len);
  size_t got = 0;
  while (got < len) {
    ssize_t k = read(fd, buf + got, len - got);
    if (k <= 0) {
      fprintf(stderr, "bench_json: read error\n");
      return 1;
    }
    got += (size_t)k;
  }
  close(fd);
  double best = 1e9, used = 0;
  size_t resources = 0;
  for (int it = 0; it < 5; it++) {
    Arena a;
    arena_init(&a, (size_t)1 << 20);
    Diags d;
    diag_init(&d, &a);
    Value v;
    double t0 = now();
    bool ok = json_parse(&a, buf, len, &v, &d, NULL);
    double t = now() - t0;
    if (!ok) {
      fprintf(stderr, "bench_json: parse failed: %s: %s\n", d.head->summary,
              d.head->detail);
      return 1;
    }
    if (t < best)
      best = t;
    used = (double)a.used;
    bool found;
    Value res = val_attr(v, "resources", &found);
    resources = found ? res.len : 0;
    arena_release(&a);
  }
  double mb = (double)len / 1e6, rss = peak_rss();
  printf("json parse: %.1f MB in %.3f s = %.0f MB/s; peak RSS %.0f MB "
         "(%.1fx input); values %.0f MB (%.1fx input); %zu resources\n",
         mb, best, mb / best, rss / 1e6, rss / (double)len, used / 1e6,
         used / (double)len, resources);
  arena_release(&in);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc >= 3 && strcmp(argv[1], "--gen") == 0)
    return gen(argv[2], argc >= 4 ? strtod(argv[3], NULL) : 50.0);
  if (argc == 2)
    return run(argv[1]);
  fprintf(stderr, "usage: bench_json --gen FILE [MB] | bench_json FILE\n");
  return 2;
}
