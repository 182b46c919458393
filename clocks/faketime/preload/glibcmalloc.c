/* Routes the allocator to glibc's own functions. Preloaded before libfaketimeMT, it
 * keeps redis-server's jemalloc from calling clock_gettime while libfaketime is still
 * initialising, which otherwise deadlocks at start ("Unexpected recursive calls to
 * clock_gettime()"). Part of lockbench; built with gcc at run time. */
#include <stddef.h>
#include <errno.h>
#include <dlfcn.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);

void *malloc(size_t size) { return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { return __libc_calloc(n, size); }
void *realloc(void *ptr, size_t size) { return __libc_realloc(ptr, size); }
void free(void *ptr) { __libc_free(ptr); }
void *memalign(size_t alignment, size_t size) { return __libc_memalign(alignment, size); }
void *valloc(size_t size) { return __libc_valloc(size); }

void *aligned_alloc(size_t alignment, size_t size) { return __libc_memalign(alignment, size); }

int posix_memalign(void **out, size_t alignment, size_t size) {
	if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0)
		return EINVAL;
	void *p = __libc_memalign(alignment, size);
	if (p == NULL && size != 0)
		return ENOMEM;
	*out = p;
	return 0;
}

/* glibc exports malloc_usable_size only under that name, which jemalloc also defines:
 * look it up in libc itself, never in the global scope. */
size_t malloc_usable_size(void *ptr) {
	static size_t (*libc_usable)(void *);
	if (libc_usable == NULL) {
		void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
		if (libc != NULL)
			libc_usable = (size_t (*)(void *))dlsym(libc, "malloc_usable_size");
		if (libc_usable == NULL)
			return 0;
	}
	return libc_usable(ptr);
}
