/*
 * releaseZeroPages(arrayBuffer): gives the pages of `arrayBuffer` that hold only zeros back to the
 * kernel (madvise MADV_DONTNEED) and answers how many bytes they hold, resident or not. The buffer
 * must be private anonymous memory (a WebAssembly memory is): such a page given back reads as zeros
 * again, so nothing a program can read changes; it only stops counting as resident until it is
 * written. The caller must make sure nothing writes the buffer meanwhile (a WebAssembly memory used
 * only on the calling thread). Linux only. See api/store/releaseZeroPages.ts.
 */
#include <node_api.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static int page_holds_only_zeros(const uint64_t *words, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (words[i]) return 0;
  return 1;
}

static napi_value release_zero_pages(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *data = NULL;
  size_t length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_arraybuffer_info(env, argv[0], &data, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "releaseZeroPages takes an ArrayBuffer");
    return NULL;
  }
  double released = 0;
  const long page_size = sysconf(_SC_PAGESIZE);
  /* Without a sane page size nothing is scanned. */
  if (page_size > 0 && (page_size & (page_size - 1)) == 0) {
    const uintptr_t page = (uintptr_t)page_size;
    const uintptr_t first = ((uintptr_t)data + page - 1) & ~(page - 1);
    const uintptr_t end = ((uintptr_t)data + length) & ~(page - 1);
    uintptr_t run = 0; /* the first page of the current run of zero pages, or 0 */
    for (uintptr_t at = first; at <= end; at += page) {
      const int zero = at < end && page_holds_only_zeros((const uint64_t *)at, page / sizeof(uint64_t));
      if (zero && !run) run = at;
      if (!zero && run) {
        if (madvise((void *)run, at - run, MADV_DONTNEED) == 0) released += (double)(at - run);
        run = 0;
      }
    }
  }
  napi_value answer;
  napi_create_double(env, released, &answer);
  return answer;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "releaseZeroPages", NAPI_AUTO_LENGTH, release_zero_pages, NULL, &fn);
  napi_set_named_property(env, exports, "releaseZeroPages", fn);
  return exports;
}
