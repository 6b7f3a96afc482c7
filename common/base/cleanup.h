/* SPDX-License-Identifier: MIT */
/* Scope-bound cleanup for the few resource kinds common/ and the tools juggle. */
#ifndef CGKIT_CLEANUP_H
#define CGKIT_CLEANUP_H

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void cg_freep(void *p)
{
	free(*(void **)p);
}

static inline void cg_closep(int *fd)
{
	if (*fd >= 0) {
		/* close() must not clobber the errno the caller is about to return */
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}

static inline void cg_closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

static inline void cg_fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

#define _cleanup_(f)	   __attribute__((cleanup(f)))
#define _cleanup_free_	   _cleanup_(cg_freep)
#define _cleanup_close_	   _cleanup_(cg_closep)
#define _cleanup_closedir_ _cleanup_(cg_closedirp)
#define _cleanup_fclose_   _cleanup_(cg_fclosep)

#define TAKE_PTR(p)                                                                                \
	({                                                                                         \
		__typeof__(p) _tp = (p);                                                           \
		(p) = NULL;                                                                        \
		_tp;                                                                               \
	})

#define TAKE_FD(fd)                                                                                \
	({                                                                                         \
		int _tf = (fd);                                                                    \
		(fd) = -1;                                                                         \
		_tf;                                                                               \
	})

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
