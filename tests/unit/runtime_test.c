// SPDX-License-Identifier: MIT
/*
 * cmd/cgtop2/names/runtime.c: a container's names from containerd's, CRI-O's and Docker's
 * state files (tests/fixtures/runtime, a node's root), and nothing from a hostile one: not
 * JSON, wrong types, a symlink, a file past the size cap; a file changed is read again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "names/runtime.h"

#define ID(x) x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x

static void check_names(int line, const char *id, const char *container, const char *pod,
			const char *ns, const char *image, const char *name)
{
	const char *want[CG_RT_N] = { container, pod, ns, image, name };
	const struct cg_rt_info *rt = cg_rt_lookup(id);

	if (!rt) {
		fprintf(stderr, "line %d: no names for %.8s...\n", line, id);
		check_failures++;
		return;
	}
	for (int k = 0; k < CG_RT_N; k++)
		if (strcmp(rt->v[k], want[k] ? want[k] : "")) {
			fprintf(stderr, "line %d: %s is \"%s\", expected \"%s\"\n", line,
				cg_rt_names[k], rt->v[k], want[k] ? want[k] : "");
			check_failures++;
		}
}

static void test_fixture_node(const char *top)
{
	char root[4096];

	snprintf(root, sizeof(root), "%s/tests/fixtures/runtime", top);
	CHECK_INT(cg_rt_init(root), 0);
	check_names(__LINE__, ID("a1"), "web", "web-7d9c6b5f4-x2x8q", "shop",
		    "registry.example.org/shop/web:1.4.2", NULL);
	check_names(__LINE__, ID("b2"), "cache", "cache-0", "shop",
		    "docker.io/library/redis:7-alpine", NULL);
	/* Docker's name without its leading /; no Kubernetes labels, no Kubernetes names */
	check_names(__LINE__, ID("c3"), NULL, NULL, NULL, "nginx:1.27", "edge-proxy");
	/* cached: the same answer again */
	check_names(__LINE__, ID("a1"), "web", "web-7d9c6b5f4-x2x8q", "shop",
		    "registry.example.org/shop/web:1.4.2", NULL);
	CHECK(cg_rt_lookup(ID("d4")) == NULL); /* not JSON */
	CHECK(cg_rt_lookup(ID("e5")) == NULL); /* numbers, arrays, null, an object: no string */
	CHECK(cg_rt_lookup(ID("f6")) == NULL); /* no file anywhere */
	CHECK(cg_rt_lookup("a1a1") == NULL); /* no container ID */
	CHECK(cg_rt_lookup(ID("A1")) == NULL);
	/* the container's own cgroup, not one below it, not a path of another ID */
	CHECK(cg_rt_of_path("/k/p.slice/cri-containerd-" ID("a1") ".scope", ID("a1")) != NULL);
	CHECK(cg_rt_of_path("/docker/" ID("c3"), ID("c3")) != NULL);
	CHECK(cg_rt_of_path("/k/p.slice/cri-containerd-" ID("a1") ".scope/sub", ID("a1")) == NULL);
	CHECK(cg_rt_of_path("/k/p.slice/crio-" ID("b2") ".scope", ID("a1")) == NULL);
	CHECK(cg_rt_of_path("/system.slice", "") == NULL);
	cg_rt_done();
	CHECK(cg_rt_lookup(ID("a1")) == NULL); /* no root: nothing */
	CHECK(cg_rt_init("/nonexistent/cgkit-root") == -ENOENT);
}

static int mkdirs(const char *root, const char *rel)
{
	char path[4096];

	for (const char *p = rel; (p = strchr(p, '/')); p++) {
		snprintf(path, sizeof(path), "%s/%.*s", root, (int)(p - rel), rel);
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

#define CRIO(id) "run/containers/storage/overlay-containers/" id "/userdata/config.json"
#define CRIO_JSON(name)                                                                            \
	"{\"annotations\":{\"io.kubernetes.container.name\":\"" name                               \
	"\",\"io.kubernetes.pod.name\":\"p\",\"io.kubernetes.pod.namespace\":\"n\"}}"

static void test_hostile_and_changed(void)
{
	char root[] = "/tmp/cgkit-runtime.XXXXXX", path[4096], *big;
	const struct cg_rt_info *rt;

	CHECK(mkdtemp(root) != NULL);
	CHECK_INT(mkdirs(root, CRIO(ID("11"))), 0);
	CHECK_INT(mkdirs(root, CRIO(ID("22"))), 0);
	CHECK_INT(mkdirs(root, CRIO(ID("33"))), 0);
	CHECK_INT(mkdirs(root, CRIO(ID("44"))), 0);
	check_put(root, CRIO(ID("11")), CRIO_JSON("first"));
	/* a symlink to a good file is no file */
	check_put(root, "elsewhere.json", CRIO_JSON("linked"));
	snprintf(path, sizeof(path), "%s/" CRIO(ID("22")), root);
	CHECK_INT(symlink("../../../../../../elsewhere.json", path), 0);
	/* a directory on the way that is a symlink: neither */
	snprintf(path, sizeof(path), "%s/run/containers/storage/overlay-containers/%s/userdata",
		 root, ID("33"));
	CHECK_INT(rmdir(path), 0);
	CHECK_INT(mkdirs(root, "real/userdata/x"), 0);
	check_put(root, "real/userdata/config.json", CRIO_JSON("dirlinked"));
	{
		char target[4096];

		snprintf(target, sizeof(target), "%s/real/userdata", root);
		CHECK_INT(symlink(target, path), 0);
	}
	/* past the cap: a valid JSON string of CG_RT_FILE_MAX bytes and more */
	big = malloc(CG_RT_FILE_MAX + 200);
	CHECK(big != NULL);
	if (big) {
		size_t n = (size_t)snprintf(big, 200, "{\"annotations\":{\"x\":\"");

		memset(big + n, 'a', CG_RT_FILE_MAX);
		strcpy(big + n + CG_RT_FILE_MAX, "\",\"io.kubernetes.container.name\":\"big\"}}");
		check_put(root, CRIO(ID("44")), big);
		free(big);
	}
	CHECK_INT(cg_rt_init(root), 0);
	check_names(__LINE__, ID("11"), "first", "p", "n", NULL, NULL);
	CHECK(cg_rt_lookup(ID("22")) == NULL);
	CHECK(cg_rt_lookup(ID("33")) == NULL);
	CHECK(cg_rt_lookup(ID("44")) == NULL);
	/* changed (another size, so no mtime granularity is needed to see it): read again */
	check_put(root, CRIO(ID("11")), CRIO_JSON("second-name"));
	check_names(__LINE__, ID("11"), "second-name", "p", "n", NULL, NULL);
	/* replaced by something hostile: the names go */
	check_put(root, CRIO(ID("11")), "{\"annotations\": 7}");
	CHECK(cg_rt_lookup(ID("11")) == NULL);
	/* removed: none; back: found again */
	snprintf(path, sizeof(path), "%s/" CRIO(ID("11")), root);
	CHECK_INT(unlink(path), 0);
	CHECK(cg_rt_lookup(ID("11")) == NULL);
	check_put(root, CRIO(ID("11")), CRIO_JSON("third"));
	rt = cg_rt_lookup(ID("11"));
	CHECK(rt && !strcmp(rt->v[CG_RT_CONTAINER], "third"));
	cg_rt_done();
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	CHECK_INT(system(path), 0);
}

static void test_extract(void)
{
	struct cg_rt_info rt;
	static const char *const bad[] = {
		"",
		"{",
		"[]",
		"null",
		"{\"annotations\":{}}",
		"{\"annotations\":{\"io.kubernetes.cri.container-name\":\"\"}}",
		/* two values, trailing bytes: a cut or spliced file */
		"{\"annotations\":{\"io.kubernetes.cri.container-name\":\"a\"}} {}",
		"{\"annotations\":{\"io.kubernetes.cri.container-name\":\"a\"}}x",
		/* a NUL inside: the name would be cut */
		"{\"annotations\":{\"io.kubernetes.cri.container-name\":\"a\\u0000b\"}}",
	};
	char deep[4096];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = cg_rt_extract(CG_RT_CONTAINERD, bad[i], strlen(bad[i]), &rt);

		if (r != -EINVAL) {
			fprintf(stderr, "bad[%zu] gave %d\n", i, r);
			check_failures++;
		}
	}
	/* deeper than any state file */
	memset(deep, '[', 2000);
	memset(deep + 2000, ']', 2000);
	CHECK_INT(cg_rt_extract(CG_RT_DOCKER, deep, 4000, &rt), -EINVAL);
	/* a name with what a terminal or an exposition must not get raw: kept as bytes here */
	{
		static const char esc[] = "{\"Name\":\"/a\\u001b[2Jb\\n\\\"\"}";

		CHECK_INT(cg_rt_extract(CG_RT_DOCKER, esc, strlen(esc), &rt), 0);
	}
	CHECK_STR(rt.v[CG_RT_NAME], "a\033[2Jb\n\"");
	/* a name longer than its room is none */
	{
		char *s = malloc(2000);
		size_t n = (size_t)sprintf(s, "{\"Name\":\"/");

		memset(s + n, 'x', 600);
		strcpy(s + n + 600, "\",\"Config\":{\"Image\":\"i\"}}");
		CHECK_INT(cg_rt_extract(CG_RT_DOCKER, s, strlen(s), &rt), 0);
		CHECK_STR(rt.v[CG_RT_NAME], "");
		CHECK_STR(rt.v[CG_RT_IMAGE], "i");
		free(s);
	}
}

/* Issue 40's sweep: an ID a lookup, each new, as a user making cgroups chooses them: the cache
 * stays within its bound (it grew by one entry of some 2.6 KB an ID, for as long as cgtop2 ran). */
static void test_cache_bound(void)
{
	char root[] = "/tmp/cgkit-runtime.XXXXXX", id[65], path[4096];

	CHECK(mkdtemp(root) != NULL);
	CHECK_INT(cg_rt_init(root), 0);
	for (unsigned i = 0; i < 3 * CG_RT_CACHE_MAX; i++) {
		snprintf(id, sizeof(id), "%064x", i);
		CHECK(cg_rt_lookup(id) == NULL);
	}
	CHECK(cg_rt_cached() > 0);
	CHECK(cg_rt_cached() <= CG_RT_CACHE_MAX);
	cg_rt_done();
	CHECK_INT((int)cg_rt_cached(), 0);
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	CHECK_INT(system(path), 0);
}

int main(void)
{
	const char *top = getenv("CGKIT_TOP");

	test_extract();
	test_fixture_node(top ? top : ".");
	test_hostile_and_changed();
	test_cache_bound();
	return CHECK_DONE();
}
