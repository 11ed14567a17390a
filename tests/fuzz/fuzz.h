/*
** fuzz.h: what every libFuzzer target in tests/fuzz shares (docs/fuzzing.md).
** Each target defines LLVMFuzzerTestOneInput and builds a fresh arena per
** input, collects diagnostics and drops them with the arena, as cairn
** does.  The prototypes are here so that -Wmissing-prototypes holds.
*/
#ifndef CAIRN_FUZZ_H
#define CAIRN_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
