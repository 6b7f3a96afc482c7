// SPDX-License-Identifier: MIT
/*
 * Who is in a container: the Kubernetes container, pod, namespace and image names (and
 * Docker's container name) from the state files each runtime keeps on the node, read without
 * a runtime socket, so that cgtop2 labels a container's series as cAdvisor does. The files are
 * data written by others: opened beneath a root fd with no symlink, a regular file of at most
 * CG_RT_FILE_MAX bytes, parsed by json-c; anything else names nothing and fails nothing.
 * Read once a container and again only when the file changed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/cleanup.h"
#include "base/hash.h"
#include "kernel/file.h"
#include "runtime.h"

const char *const cg_rt_names[CG_RT_N] = {
	[CG_RT_CONTAINER] = "container", [CG_RT_POD] = "pod",	[CG_RT_NAMESPACE] = "namespace",
	[CG_RT_IMAGE] = "image",	 [CG_RT_NAME] = "name",
};

/*
 * Each runtime's keys, as its own source names them: containerd's CRI plugin annotations
 * (internal/cri/annotations), CRI-O's (the kubelet's label keys, which it copies into the OCI
 * annotations, and its own io.kubernetes.cri-o.ImageName), and for Docker (dockershim) the
 * same kubelet keys among the container's labels. NULL: the runtime has none.
 */
static const char *const keys[][CG_RT_NAME] = {
	[CG_RT_CONTAINERD] = { "io.kubernetes.cri.container-name", "io.kubernetes.cri.sandbox-name",
			       "io.kubernetes.cri.sandbox-namespace",
			       "io.kubernetes.cri.image-name" },
	[CG_RT_CRIO] = { "io.kubernetes.container.name", "io.kubernetes.pod.name",
			 "io.kubernetes.pod.namespace", "io.kubernetes.cri-o.ImageName" },
	[CG_RT_DOCKER] = { "io.kubernetes.container.name", "io.kubernetes.pod.name",
			   "io.kubernetes.pod.namespace", NULL },
};

/* o's member name as a string, or NULL; one holding a NUL (json-c keeps \u0000) too */
static const char *member_string(struct json_object *o, const char *name)
{
	struct json_object *m;
	const char *v;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, name, &m) || !json_object_is_type(m, json_type_string))
		return NULL;
	v = json_object_get_string(m);
	return v && strlen(v) == (size_t)json_object_get_string_len(m) ? v : NULL;
}

static struct json_object *member_object(struct json_object *o, const char *name)
{
	struct json_object *m;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, name, &m) || !json_object_is_type(m, json_type_object))
		return NULL;
	return m;
}

/* s into field k, unless it is empty or has no room */
static bool field_set(struct cg_rt_info *ret, enum cg_rt_key k, const char *s)
{
	size_t n;

	if (!s || !*s)
		return false;
	n = strlen(s);
	if (n >= sizeof(ret->v[k]))
		return false;
	memcpy(ret->v[k], s, n + 1);
	return true;
}

int cg_rt_extract(enum cg_rt_kind kind, const char *text, size_t len, struct cg_rt_info *ret)
{
	struct json_tokener *tok;
	struct json_object *root, *labels, *config = NULL;
	bool any = false;

	memset(ret, 0, sizeof(*ret));
	if (len > CG_RT_FILE_MAX || len > INT32_MAX)
		return -EINVAL;
	/* a nesting bound: a state file is a few levels deep, a hostile one thousands */
	tok = json_tokener_new_ex(64);
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)len);
	/* the whole text one value: a cut file is no file */
	if (!root || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != len) {
		json_object_put(root);
		json_tokener_free(tok);
		return -EINVAL;
	}
	json_tokener_free(tok);
	if (kind == CG_RT_DOCKER) {
		const char *name = member_string(root, "Name");

		config = member_object(root, "Config");
		labels = member_object(config, "Labels");
		/* Docker keeps its names with the leading / of its old links */
		any |= field_set(ret, CG_RT_NAME, name && *name == '/' ? name + 1 : name);
		any |= field_set(ret, CG_RT_IMAGE, member_string(config, "Image"));
	} else {
		labels = member_object(root, "annotations");
	}
	for (int k = 0; k < CG_RT_NAME; k++)
		if (keys[kind][k] && !ret->v[k][0])
			any |= field_set(ret, (enum cg_rt_key)k,
					 member_string(labels, keys[kind][k]));
	json_object_put(root);
	return any ? 0 : -EINVAL;
}

/* ---- the files and the cache -------------------------------------------------------------- */

/* Where each runtime keeps them beneath the root; containerd's has its namespace in between. */
static const char *const bases[] = {
	[CG_RT_CONTAINERD] = "run/containerd/io.containerd.runtime.v2.task",
	[CG_RT_CRIO] = "run/containers/storage/overlay-containers",
	[CG_RT_DOCKER] = "var/lib/docker/containers",
};
static const char *const files[] = {
	[CG_RT_CONTAINERD] = "config.json",
	[CG_RT_CRIO] = "userdata/config.json",
	[CG_RT_DOCKER] = "config.v2.json",
};

struct entry {
	char id[65]; /* the cache's key */
	char *path; /* beneath the root, of the file last read; NULL: none found */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	bool valid; /* info is the file's */
	struct cg_rt_info info;
};

static int root_fd = -1;
static struct cg_pathmap cache;
static size_t cached;

/* every entry freed, root_fd kept */
static void cache_empty(void)
{
	const struct cg_pathmap_slot *s;
	size_t i = 0;

	while ((s = cg_pathmap_next(&cache, &i))) {
		struct entry *e = s->value;

		free(e->path);
		free(e);
	}
	cg_pathmap_clear(&cache);
	cached = 0;
}

/*
 * path beneath dirfd, no symlink on the way, no way out: openat2 where the kernel has it,
 * else file.c's per-component O_NOFOLLOW walk. Unlike a cgroup file's open, a mount may be
 * crossed (/run is a tmpfs beneath /).
 */
static int open_beneath(int dirfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC | O_NOFOLLOW),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

	if (fd < 0 && errno == ENOSYS)
		return cg_open_beneath_walk(dirfd, path, flags | O_NOFOLLOW, 0);
	return fd < 0 ? -errno : fd;
}

/* The file at e's path read and its names taken, whatever they are; 0 or -errno. */
static int entry_read(struct entry *e, int fd, const struct stat *st, enum cg_rt_kind kind)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	ssize_t n;

	e->dev = st->st_dev;
	e->ino = st->st_ino;
	e->size = st->st_size;
	e->mtime = st->st_mtim;
	e->valid = false;
	if (st->st_size > CG_RT_FILE_MAX)
		return -EFBIG;
	buf = malloc(CG_RT_FILE_MAX + 2);
	if (!buf)
		return -ENOMEM;
	/* one read of the cap and a byte: a file that grew past the cap since the fstat is none */
	n = cg_pread_buf(fd, buf, CG_RT_FILE_MAX + 2);
	if (n < 0)
		return (int)n;
	len = (size_t)n;
	e->valid = cg_rt_extract(kind, buf, len, &e->info) == 0;
	return 0;
}

/*
 * The file at path (beneath the root) for e: 1 when it is there as a regular file (read
 * again if it changed since e's last read), 0 when not, -errno.
 */
static int entry_try(struct entry *e, const char *path, enum cg_rt_kind kind)
{
	_cleanup_close_ int fd = open_beneath(root_fd, path, O_RDONLY | O_NONBLOCK);
	struct stat st;
	int r;

	if (fd < 0)
		return fd == -ENOENT || fd == -ENOTDIR ? 0 : fd;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return 0;
	if (e->path && !strcmp(e->path, path) && e->dev == st.st_dev && e->ino == st.st_ino &&
	    e->size == st.st_size && e->mtime.tv_sec == st.st_mtim.tv_sec &&
	    e->mtime.tv_nsec == st.st_mtim.tv_nsec)
		return 1;
	if (!e->path || strcmp(e->path, path)) {
		char *p = strdup(path);

		if (!p)
			return -ENOMEM;
		free(e->path);
		e->path = p;
	}
	r = entry_read(e, fd, &st, kind);
	return r < 0 && r != -EFBIG ? r : 1;
}

/* containerd's bundle of id in any of its namespaces (k8s.io for the kubelet, moby, ...) */
static int try_containerd(struct entry *e, const char *id)
{
	_cleanup_close_ int dfd =
		open_beneath(root_fd, bases[CG_RT_CONTAINERD], O_RDONLY | O_DIRECTORY);
	DIR *d;
	struct dirent *de;
	int r = 0;

	if (dfd < 0)
		return 0;
	d = fdopendir(dfd);
	if (!d)
		return -errno;
	dfd = -1;
	while (r == 0 && (de = readdir(d))) {
		char path[PATH_MAX];

		if (de->d_name[0] == '.' || strchr(de->d_name, '/'))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s/%s/%s", bases[CG_RT_CONTAINERD], de->d_name,
			     id, files[CG_RT_CONTAINERD]) >= (int)sizeof(path))
			continue;
		r = entry_try(e, path, CG_RT_CONTAINERD);
	}
	closedir(d);
	return r;
}

/* The runtimes in turn: 1 found, 0 none, -errno. */
static int entry_find(struct entry *e, const char *id)
{
	static const enum cg_rt_kind direct[] = { CG_RT_CRIO, CG_RT_DOCKER };
	int r;

	for (size_t i = 0; i < sizeof(direct) / sizeof(direct[0]); i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s/%s", bases[direct[i]], id, files[direct[i]]);
		r = entry_try(e, path, direct[i]);
		if (r)
			return r;
	}
	return try_containerd(e, id);
}

static enum cg_rt_kind kind_of(const char *path)
{
	for (int k = 0; k < (int)(sizeof(bases) / sizeof(bases[0])); k++)
		if (!strncmp(path, bases[k], strlen(bases[k])))
			return (enum cg_rt_kind)k;
	return CG_RT_CONTAINERD;
}

const struct cg_rt_info *cg_rt_lookup(const char *id)
{
	struct entry *e;
	int r = 0;

	if (root_fd < 0 || strlen(id) != 64 || strspn(id, "0123456789abcdef") != 64)
		return NULL;
	e = cg_pathmap_get(&cache, NULL, id);
	if (!e) {
		/*
		 * The IDs come from cgroup names, which a user who may make cgroups chooses: a cache
		 * of every one ever seen grows for as long as the exporter runs. Past the bound it
		 * starts again; the live containers' files are read once more.
		 */
		if (cached >= CG_RT_CACHE_MAX)
			cache_empty();
		e = calloc(1, sizeof(*e));
		if (e)
			memcpy(e->id, id, sizeof(e->id));
		if (!e || cg_pathmap_put(&cache, NULL, e->id, e) < 0) {
			free(e);
			return NULL;
		}
		cached++;
	}
	/* where it was found last: unchanged, nothing is read */
	if (e->path)
		r = entry_try(e, e->path, kind_of(e->path));
	if (r <= 0) {
		free(e->path);
		e->path = NULL;
		e->valid = false;
		r = entry_find(e, id);
	}
	return r > 0 && e->valid ? &e->info : NULL;
}

const struct cg_rt_info *cg_rt_of_path(const char *path, const char *container_id)
{
	const char *leaf = strrchr(path, '/');

	if (!*container_id || !strstr(leaf ? leaf + 1 : path, container_id))
		return NULL;
	return cg_rt_lookup(container_id);
}

int cg_rt_init(const char *root)
{
	int fd = open(root ? root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	cg_rt_done();
	root_fd = fd;
	return 0;
}

size_t cg_rt_cached(void)
{
	return cached;
}

void cg_rt_done(void)
{
	cache_empty();
	if (root_fd >= 0)
		close(root_fd);
	root_fd = -1;
}
