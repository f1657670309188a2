/*
 * gen: writes a deterministic stream of realistic Kubernetes manifests,
 * shaped like `helm template` output of a few dozen charts, for the
 * benchmark (bench/run.sh) and its smoke test.
 *
 *   gen N > stream.yaml
 *   gen --broad N > stream.yaml
 *   gen --resourcelist [--broad] N > resourcelist.yaml
 *
 * The PRNG has a fixed seed, so the same N gives the same bytes on every
 * run and machine.  Objects average about 2 KB: Deployments with several
 * containers, env, probes, volumes, resources and security contexts;
 * Services; ConfigMaps with large literal blocks; StatefulSets, DaemonSets,
 * Jobs, CronJobs; ServiceAccounts, Roles, RoleBindings and ClusterRoles.
 * About a third of the workloads run Windows base images (so wingen's
 * Windows transforms have work to do); they carry the label
 * app.kubernetes.io/os: windows so kustomize patches can pick them.  Some
 * of them keep Linux-only security fields copied from Linux charts, which
 * wingen must remove.  Names are unique per kind and namespace, as
 * kustomize requires.
 *
 * --broad writes the stream of a monorepo whose Services select by shared
 * labels: Deployments, DaemonSets, Jobs and Services only, every pod
 * labelled with its chart (app.kubernetes.io/part-of) and a tier, and
 * most Services selecting by app name, tier or chart rather than by
 * instance, so each selects a share of the stream's workloads that grows
 * with the stream (thousands at 50k objects).
 *
 * --resourcelist writes the same objects as the items of one KRM
 * ResourceList (what kpt hands "wingen fn"), with the bench profile as
 * its functionConfig when WINGEN_BENCH_PROFILE names one.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED UINT64_C(0x77696e67656e2121)	/* "wingen!!" */

struct gen {
	uint64_t rng;
	unsigned long index;	/* the object being written */
	/* The last workload written, for the Service that fronts it. */
	char app[64];
	char instance[96];
	char ns[32];
	bool have_app;
	bool broad;		/* --broad: shared labels, broad selectors */
	const char *chart;	/* the last workload's part-of, tier */
	const char *tier;
};

/* splitmix64: small, fast, and the same on every platform. */
static uint64_t next(struct gen *g)
{
	uint64_t z = (g->rng += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static unsigned rnd(struct gen *g, unsigned n)
{
	return (unsigned)(next(g) % n);
}

static bool chance(struct gen *g, unsigned percent)
{
	return rnd(g, 100) < percent;
}

#define PICK(g, arr) ((arr)[rnd((g), sizeof(arr) / sizeof((arr)[0]))])

/* --resourcelist: every object an item of "items:" (indented by 2, its
 * first line after "- "). */
static bool as_items;
static bool item_start;

__attribute__((format(printf, 2, 3)))
static void line(int indent, const char *fmt, ...)
{
	va_list ap;

	if (as_items && item_start) {
		printf("- %*s", indent, "");
		item_start = false;
	} else {
		printf("%*s", indent + (as_items ? 2 : 0), "");
	}
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static const char *const namespaces[] = {
	"default", "shop", "payments", "identity", "monitoring", "logging",
	"ingress", "data", "batch", "win-apps", "win-legacy", "platform",
};

static const char *const apps[] = {
	"checkout", "cart", "catalog", "frontend", "gateway", "auth",
	"billing", "search", "recommender", "inventory", "shipping", "notify",
	"ledger", "reports", "scheduler", "worker", "api", "admin",
	"profile", "media", "pricing", "orders", "users", "sessions",
};

static const char *const charts[] = {
	"webapp", "platform-core", "observability", "data-services",
	"legacy-dotnet", "edge",
};

static const char *const tiers[] = { "web", "api", "worker" };

static const char *const linux_images[] = {
	"nginx:1.25.3",
	"ghcr.io/acme/checkout:v1.4.2",
	"registry.k8s.io/ingress-nginx/controller:v1.9.4",
	"quay.io/prometheus/node-exporter:v1.7.0",
	"docker.io/bitnami/redis:7.2.3-debian-11-r2",
	"envoyproxy/envoy:v1.28.0",
	"postgres:16.1",
	"ghcr.io/acme/api@sha256:3b1f0c8e4d2a9f7e6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928170615",
	"public.ecr.aws/acme/worker:2024.01.15",
	"gcr.io/distroless/static-debian12:nonroot",
};

static const char *const linux_sidecars[] = {
	"fluent/fluent-bit:2.2.0",
	"envoyproxy/envoy:v1.28.0",
	"quay.io/oauth2-proxy/oauth2-proxy:v7.5.1",
	"busybox:1.36",
};

/* Windows images and the build each one needs (NULL: the default). */
static const struct {
	const char *image;
	const char *build;
} windows_images[] = {
	{ "mcr.microsoft.com/windows/servercore:ltsc2022", NULL },
	{ "mcr.microsoft.com/windows/nanoserver:ltsc2022", NULL },
	{ "mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022",
	  NULL },
	{ "mcr.microsoft.com/windows/servercore:ltsc2022-amd64", NULL },
	{ "mcr.microsoft.com/windows/servercore:ltsc2019", "ltsc2019" },
	{ "mcr.microsoft.com/windows/nanoserver:1809", "ltsc2019" },
	{ "mcr.microsoft.com/windows/servercore:ltsc2025", "ltsc2025" },
	{ "mcr.microsoft.com/windows/nanoserver:ltsc2025", "ltsc2025" },
};

static const char *const log_levels[] = { "debug", "info", "warn", "error" };
static const char *const cpus[] = { "50m", "100m", "250m", "500m", "1", "2" };
static const char *const mems[] = { "64Mi", "128Mi", "256Mi", "512Mi", "1Gi",
				    "2Gi" };

static void hex(struct gen *g, char *out, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++)
		out[i] = digits[rnd(g, 16)];
	out[n] = '\0';
}

/* The "# Source:" line helm puts before every document. */
static void header(struct gen *g, const char *file)
{
	if (as_items)
		item_start = true;
	else
		puts("---");
	printf("%*s# Source: %s/templates/%s\n", as_items ? 2 : 0, "",
	       PICK(g, charts), file);
}

static void labels(struct gen *g, int ind, const char *app,
		   const char *instance, bool windows, bool full)
{
	unsigned major, minor;

	line(ind, "app.kubernetes.io/name: %s", app);
	line(ind, "app.kubernetes.io/instance: %s", instance);
	if (windows)
		line(ind, "app.kubernetes.io/os: windows");
	if (!full)
		return;
	/* One draw per statement: argument order is unspecified in C. */
	major = 1 + rnd(g, 4);
	minor = rnd(g, 20);
	line(ind, "app.kubernetes.io/version: \"%u.%u.%u\"", major, minor,
	     rnd(g, 10));
	line(ind, "app.kubernetes.io/component: %s",
	     PICK(g, ((const char *const[]){ "server", "backend", "web",
					       "cache", "controller" })));
	line(ind, "app.kubernetes.io/part-of: %s", PICK(g, charts));
	line(ind, "app.kubernetes.io/managed-by: Helm");
	major = rnd(g, 3);
	minor = rnd(g, 30);
	line(ind, "helm.sh/chart: %s-%u.%u.%u", app, major, minor, rnd(g, 9));
}

static void metadata(struct gen *g, const char *name, const char *ns,
		     const char *app, bool windows)
{
	line(0, "metadata:");
	line(2, "name: %s", name);
	if (ns)
		line(2, "namespace: %s", ns);
	line(2, "labels:");
	labels(g, 4, app, name, windows, true);
}

/* ---- pod specs --------------------------------------------------------- */

struct pod {
	const char *app;
	const char *instance;
	bool windows;
	const char *image;	/* main container image */
	bool job;		/* restartPolicy Never, no probes */
	bool daemon;		/* host paths, node-level agent */
};

static void probe(struct gen *g, int ind, const char *name,
		  const struct pod *p)
{
	line(ind, "%s:", name);
	if (p->windows && chance(g, 40)) {
		line(ind + 2, "exec:");
		line(ind + 4, "command:");
		line(ind + 6, "- powershell.exe");
		line(ind + 6, "- -Command");
		line(ind + 6, "- 'if ((Get-Service W3SVC).Status -ne "
		     "\"Running\") { exit 1 }'");
	} else if (chance(g, 20)) {
		line(ind + 2, "tcpSocket:");
		line(ind + 4, "port: %u", 8000 + rnd(g, 1000));
	} else {
		line(ind + 2, "httpGet:");
		line(ind + 4, "path: /%s", strcmp(name, "livenessProbe") == 0
		     ? "healthz" : "ready");
		line(ind + 4, "port: http");
		line(ind + 4, "scheme: HTTP");
	}
	line(ind + 2, "initialDelaySeconds: %u", 5 * rnd(g, 7));
	line(ind + 2, "periodSeconds: %u", 5 + 5 * rnd(g, 4));
	line(ind + 2, "timeoutSeconds: %u", 1 + rnd(g, 5));
	line(ind + 2, "successThreshold: 1");
	line(ind + 2, "failureThreshold: %u", 3 + rnd(g, 3));
}

static void env(struct gen *g, int ind, const struct pod *p)
{
	unsigned n = 2 + rnd(g, 5);
	const char *host, *ns;
	unsigned used = 0;

	line(ind, "env:");
	for (unsigned i = 0; i < n; i++) {
		unsigned k = rnd(g, 7);

		/* Names are unique in a container (they are its merge key):
		 * a fixed name already written becomes a feature flag. */
		if ((k == 0 || k == 3 || k == 6) && (used & (1u << k)))
			k = 2;
		used |= 1u << k;
		switch (k) {
		case 0:
			line(ind, "- name: POD_NAME");
			line(ind + 2, "valueFrom:");
			line(ind + 4, "fieldRef:");
			line(ind + 6, "apiVersion: v1");
			line(ind + 6, "fieldPath: metadata.name");
			break;
		case 1:
			line(ind, "- name: DB_PASSWORD_%u", i);
			line(ind + 2, "valueFrom:");
			line(ind + 4, "secretKeyRef:");
			line(ind + 6, "name: %s-db", p->instance);
			line(ind + 6, "key: password");
			break;
		case 2:
			line(ind, "- name: FEATURE_FLAG_%u", i);
			line(ind + 2, "value: \"%s\"",
			     chance(g, 50) ? "true" : "false");
			break;
		case 3:
			line(ind, "- name: LOG_LEVEL");
			line(ind + 2, "value: %s", PICK(g, log_levels));
			break;
		case 4:
			host = PICK(g, apps);
			ns = PICK(g, namespaces);
			line(ind, "- name: UPSTREAM_URL_%u", i);
			line(ind + 2, "value: http://%s.%s.svc.cluster.local"
			     ":%u", host, ns, 8000 + rnd(g, 100));
			break;
		case 5:
			line(ind, "- name: MAX_CONNECTIONS_%u", i);
			line(ind + 2, "value: \"%u\"", 10 * (1 + rnd(g, 50)));
			break;
		default:
			if (p->windows) {
				line(ind, "- name: ASPNETCORE_ENVIRONMENT");
				line(ind + 2, "value: Production");
			} else {
				line(ind, "- name: JAVA_OPTS");
				line(ind + 2, "value: -Xms256m -Xmx%um "
				     "-XX:+UseG1GC -Dfile.encoding=UTF-8",
				     256 * (1 + rnd(g, 4)));
			}
		}
	}
}

static void resources(struct gen *g, int ind)
{
	unsigned c = rnd(g, 4), m = rnd(g, 4);

	line(ind, "resources:");
	line(ind + 2, "requests:");
	line(ind + 4, "cpu: %s", cpus[c]);
	line(ind + 4, "memory: %s", mems[m]);
	line(ind + 2, "limits:");
	if (chance(g, 30))	/* quoted, as some charts write it */
		line(ind + 4, "cpu: \"%s\"", cpus[c + 2]);
	else
		line(ind + 4, "cpu: %s", cpus[c + 2]);
	line(ind + 4, "memory: %s", mems[m + 2]);
}

/* Linux-only container fields that Windows charts copied from Linux ones. */
static void linux_container_security(struct gen *g, int ind)
{
	line(ind, "securityContext:");
	line(ind + 2, "allowPrivilegeEscalation: false");
	line(ind + 2, "readOnlyRootFilesystem: %s",
	     chance(g, 70) ? "true" : "false");
	line(ind + 2, "runAsNonRoot: true");
	line(ind + 2, "runAsUser: %u", 1000 + rnd(g, 9000));
	line(ind + 2, "capabilities: {drop: [ALL]}");
	if (chance(g, 40)) {
		line(ind + 2, "seccompProfile:");
		line(ind + 4, "type: RuntimeDefault");
	}
}

static void container(struct gen *g, int ind, const struct pod *p,
		      const char *name, const char *image, bool main)
{
	line(ind, "- name: %s", name);
	line(ind + 2, "image: %s", image);
	line(ind + 2, "imagePullPolicy: %s", chance(g, 70) ? "IfNotPresent"
							  : "Always");
	if (p->windows) {
		line(ind + 2, "command: [\"powershell.exe\", \"-NoProfile\", "
		     "\"-Command\"]");
		line(ind + 2, "args:");
		line(ind + 4, "- |");
		line(ind + 6, "$ErrorActionPreference = 'Stop'");
		line(ind + 6, "Set-Location C:\\app");
		line(ind + 6, "& C:\\app\\%s.exe --port %u", name,
		     8000 + rnd(g, 100));
	} else if (chance(g, 50)) {
		line(ind + 2, "command: [\"/bin/sh\", \"-c\"]");
		line(ind + 2, "args: [\"exec /app/%s --config /etc/%s/config."
		     "yaml\"]", name, p->app);
	} else {
		line(ind + 2, "args:");
		line(ind + 4, "- --port=%u", 8000 + rnd(g, 100));
		line(ind + 4, "- --metrics-addr=:9090");
		line(ind + 4, "- --log-level=%s", PICK(g, log_levels));
	}
	if (main) {
		line(ind + 2, "ports:");
		line(ind + 2, "- name: http");
		line(ind + 4, "containerPort: %u", p->windows ? 80
				: 8000 + rnd(g, 100));
		line(ind + 4, "protocol: TCP");
		if (chance(g, 50)) {
			line(ind + 2, "- name: metrics");
			line(ind + 4, "containerPort: 9090");
			line(ind + 4, "protocol: TCP");
		}
	}
	env(g, ind + 2, p);
	if (main && chance(g, 40)) {
		line(ind + 2, "envFrom:");
		line(ind + 2, "- configMapRef:");
		line(ind + 6, "name: %s-env", p->instance);
	}
	resources(g, ind + 2);
	if (main && !p->job) {
		probe(g, ind + 2, "livenessProbe", p);
		probe(g, ind + 2, "readinessProbe", p);
		if (chance(g, 25))
			probe(g, ind + 2, "startupProbe", p);
	}
	if (!p->windows || chance(g, 35)) {
		linux_container_security(g, ind + 2);
	} else {
		line(ind + 2, "securityContext:");
		line(ind + 4, "windowsOptions:");
		line(ind + 6, "runAsUserName: ContainerUser");
	}
	line(ind + 2, "volumeMounts:");
	line(ind + 2, "- name: config");
	line(ind + 4, "mountPath: %s", p->windows ? "C:\\app\\config"
						 : "/etc/app");
	line(ind + 4, "readOnly: true");
	if (main) {
		line(ind + 2, "- name: data");
		line(ind + 4, "mountPath: %s", p->windows ? "C:\\data"
							 : "/var/lib/app");
	}
	if (!p->windows && chance(g, 30))
		line(ind + 2, "terminationMessagePolicy: "
		     "FallbackToLogsOnError");
}

static void pod_spec(struct gen *g, int ind, const struct pod *p)
{
	unsigned extra = rnd(g, p->windows ? 2 : 3);

	line(ind, "serviceAccountName: %s", p->instance);
	if (p->job)
		line(ind, "restartPolicy: %s", chance(g, 50) ? "Never"
							    : "OnFailure");
	line(ind, "terminationGracePeriodSeconds: %u", 10 * (1 + rnd(g, 6)));
	if (!p->windows && chance(g, 25)) {
		line(ind, "nodeSelector:");
		line(ind + 2, "kubernetes.io/os: linux");
	}
	if (p->daemon && !p->windows) {
		line(ind, "hostNetwork: true");
		line(ind, "dnsPolicy: ClusterFirstWithHostNet");
	}
	line(ind, "securityContext:");
	if (!p->windows || chance(g, 30)) {
		line(ind + 2, "runAsNonRoot: true");
		line(ind + 2, "runAsUser: %u", 1000 + rnd(g, 9000));
		line(ind + 2, "fsGroup: %u", 1000 + rnd(g, 9000));
		line(ind + 2, "seccompProfile:");
		line(ind + 4, "type: RuntimeDefault");
	} else {
		line(ind + 2, "windowsOptions:");
		line(ind + 4, "runAsUserName: ContainerUser");
	}
	if (chance(g, 30)) {
		line(ind, "initContainers:");
		container(g, ind, p, "init-config",
			  p->windows ? p->image : "busybox:1.36", false);
	}
	line(ind, "containers:");
	container(g, ind, p, p->app, p->image, true);
	for (unsigned i = 0; i < extra; i++) {
		char name[32];

		snprintf(name, sizeof(name), "sidecar-%u", i);
		container(g, ind, p, name, p->windows ? p->image
				: PICK(g, linux_sidecars), false);
	}
	line(ind, "volumes:");
	line(ind, "- name: config");
	line(ind + 2, "configMap:");
	line(ind + 4, "name: %s-config", p->instance);
	line(ind + 4, "defaultMode: 0644");
	line(ind, "- name: data");
	if (p->daemon && !p->windows) {
		line(ind + 2, "hostPath:");
		line(ind + 4, "path: /var/log");
		line(ind + 4, "type: Directory");
	} else {
		line(ind + 2, "emptyDir: {}");
	}
	if (chance(g, 40)) {
		line(ind, "- name: tls");
		line(ind + 2, "secret:");
		line(ind + 4, "secretName: %s-tls", p->instance);
		line(ind + 4, "optional: true");
	}
	if (!p->windows && !p->daemon && !p->job && chance(g, 50)) {
		line(ind, "affinity:");
		line(ind + 2, "podAntiAffinity:");
		line(ind + 4, "preferredDuringScheduling"
		     "IgnoredDuringExecution:");
		line(ind + 4, "- weight: 100");
		line(ind + 6, "podAffinityTerm:");
		line(ind + 8, "topologyKey: kubernetes.io/hostname");
		line(ind + 8, "labelSelector:");
		line(ind + 10, "matchLabels:");
		line(ind + 12, "app.kubernetes.io/name: %s", p->app);
	}
	if (!p->windows && chance(g, 20)) {
		line(ind, "tolerations:");
		line(ind, "- key: dedicated");
		line(ind + 2, "operator: Equal");
		line(ind + 2, "value: %s", p->app);
		line(ind + 2, "effect: NoSchedule");
	}
}

static void pod_template(struct gen *g, int ind, const struct pod *p)
{
	char sum[65];

	line(ind, "template:");
	line(ind + 2, "metadata:");
	line(ind + 4, "labels:");
	labels(g, ind + 6, p->app, p->instance, p->windows, false);
	if (g->broad) {
		g->chart = PICK(g, charts);
		g->tier = PICK(g, tiers);
		line(ind + 6, "app.kubernetes.io/part-of: %s", g->chart);
		line(ind + 6, "tier: %s", g->tier);
	}
	line(ind + 4, "annotations:");
	hex(g, sum, 64);
	line(ind + 6, "checksum/config: %s", sum);
	if (chance(g, 60)) {
		line(ind + 6, "prometheus.io/scrape: \"true\"");
		line(ind + 6, "prometheus.io/port: \"9090\"");
	}
	line(ind + 2, "spec:");
	pod_spec(g, ind + 4, p);
}

/*
 * Picks the workload's app, name and images.  The name is unique in the
 * stream (it carries the object index).
 */
static const char *workload(struct gen *g, struct pod *p, const char *kind,
			    bool windows, char *name, size_t size)
{
	const char *ns;
	const char *build = NULL;

	memset(p, 0, sizeof(*p));
	p->app = PICK(g, apps);
	p->windows = windows;
	if (windows) {
		unsigned i = rnd(g, sizeof(windows_images)
				 / sizeof(windows_images[0]));

		p->image = windows_images[i].image;
		build = windows_images[i].build;
		/* --broad: a monorepo keeps its Windows apps apart */
		ns = g->broad || chance(g, 50) ? PICK(g, ((const char *const[]){
				"win-apps", "win-legacy" }))
				   : PICK(g, namespaces);
	} else {
		p->image = PICK(g, linux_images);
		ns = PICK(g, namespaces);
	}
	snprintf(name, size, "%s-%s%s-%lu", p->app, kind,
		 windows ? "-win" : "", g->index);
	p->instance = name;
	snprintf(g->app, sizeof(g->app), "%s", p->app);
	snprintf(g->instance, sizeof(g->instance), "%s", name);
	snprintf(g->ns, sizeof(g->ns), "%s", ns);
	g->have_app = true;
	return build;
}

static void workload_metadata(struct gen *g, const struct pod *p,
			      const char *build)
{
	metadata(g, p->instance, g->ns, p->app, p->windows);
	line(2, "annotations:");
	line(4, "meta.helm.sh/release-name: %s", p->app);
	line(4, "meta.helm.sh/release-namespace: %s", g->ns);
	if (build)
		line(4, "wingen.dev/windows-build: %s", build);
}

static void selector(struct gen *g, int ind, const struct pod *p)
{
	(void)g;
	line(ind, "selector:");
	line(ind + 2, "matchLabels:");
	line(ind + 4, "app.kubernetes.io/name: %s", p->app);
	line(ind + 4, "app.kubernetes.io/instance: %s", p->instance);
}

static void deployment(struct gen *g)
{
	char name[96];
	struct pod p;
	const char *build = workload(g, &p, "deploy", chance(g, 33), name,
				     sizeof(name));

	header(g, "deployment.yaml");
	line(0, "apiVersion: apps/v1");
	line(0, "kind: Deployment");
	workload_metadata(g, &p, build);
	line(0, "spec:");
	line(2, "replicas: %u", 1 + rnd(g, 5));
	line(2, "revisionHistoryLimit: 10");
	selector(g, 2, &p);
	line(2, "strategy:");
	line(4, "type: RollingUpdate");
	line(4, "rollingUpdate: {maxSurge: 25%%, maxUnavailable: 0}");
	pod_template(g, 2, &p);
}

static void statefulset(struct gen *g)
{
	char name[96];
	struct pod p;
	const char *build = workload(g, &p, "sts", chance(g, 25), name,
				     sizeof(name));

	header(g, "statefulset.yaml");
	line(0, "apiVersion: apps/v1");
	line(0, "kind: StatefulSet");
	workload_metadata(g, &p, build);
	line(0, "spec:");
	line(2, "serviceName: %s-headless", name);
	line(2, "replicas: %u", 1 + rnd(g, 3));
	line(2, "podManagementPolicy: %s", chance(g, 50) ? "Parallel"
							 : "OrderedReady");
	selector(g, 2, &p);
	line(2, "updateStrategy:");
	line(4, "type: RollingUpdate");
	pod_template(g, 2, &p);
	line(2, "volumeClaimTemplates:");
	line(2, "- metadata:");
	line(6, "name: data");
	line(4, "spec:");
	line(6, "accessModes: [\"ReadWriteOnce\"]");
	line(6, "storageClassName: %s", p.windows ? "managed-csi" : "gp3");
	line(6, "resources:");
	line(8, "requests:");
	line(10, "storage: %uGi", 8 << rnd(g, 5));
}

static void daemonset(struct gen *g)
{
	char name[96];
	struct pod p;
	const char *build = workload(g, &p, "ds", chance(g, 40), name,
				     sizeof(name));

	p.daemon = true;
	header(g, "daemonset.yaml");
	line(0, "apiVersion: apps/v1");
	line(0, "kind: DaemonSet");
	workload_metadata(g, &p, build);
	line(0, "spec:");
	selector(g, 2, &p);
	line(2, "updateStrategy:");
	line(4, "type: RollingUpdate");
	line(4, "rollingUpdate:");
	line(6, "maxUnavailable: 1");
	pod_template(g, 2, &p);
}

static void job(struct gen *g)
{
	char name[96];
	struct pod p;
	const char *build = workload(g, &p, "job", chance(g, 30), name,
				     sizeof(name));

	p.job = true;
	header(g, "job.yaml");
	line(0, "apiVersion: batch/v1");
	line(0, "kind: Job");
	workload_metadata(g, &p, build);
	line(0, "spec:");
	line(2, "backoffLimit: %u", rnd(g, 6));
	line(2, "completions: %u", 1 + rnd(g, 3));
	line(2, "ttlSecondsAfterFinished: 3600");
	pod_template(g, 2, &p);
}

static void cronjob(struct gen *g)
{
	char name[96];
	struct pod p;
	const char *build = workload(g, &p, "cron", chance(g, 30), name,
				     sizeof(name));
	unsigned minute;

	p.job = true;
	header(g, "cronjob.yaml");
	line(0, "apiVersion: batch/v1");
	line(0, "kind: CronJob");
	workload_metadata(g, &p, build);
	line(0, "spec:");
	minute = rnd(g, 5);
	line(2, "schedule: \"%u/%u * * * *\"", minute, 5 + 5 * rnd(g, 6));
	line(2, "concurrencyPolicy: Forbid");
	line(2, "successfulJobsHistoryLimit: 3");
	line(2, "failedJobsHistoryLimit: 1");
	line(2, "jobTemplate:");
	line(4, "spec:");
	line(6, "backoffLimit: 2");
	pod_template(g, 6, &p);
}

/* ---- other objects ----------------------------------------------------- */

/* A Service's selector: by instance, or in --broad mode mostly by the
 * labels many workloads share. */
static void broad_selector(struct gen *g)
{
	unsigned shape = g->broad ? rnd(g, 10) : 9;

	if (shape < 3) {		/* every pod of the app */
		line(4, "app.kubernetes.io/name: %s", g->app);
	} else if (shape < 5) {		/* a tier of the namespace */
		line(4, "tier: %s", g->tier ? g->tier : "web");
	} else if (shape < 6) {		/* a chart of the namespace */
		line(4, "app.kubernetes.io/part-of: %s",
		     g->chart ? g->chart : "webapp");
	} else if (shape < 8) {		/* the app's pods of a tier */
		line(4, "app.kubernetes.io/name: %s", g->app);
		line(4, "tier: %s", g->tier ? g->tier : "web");
	} else {			/* the workload before it */
		line(4, "app.kubernetes.io/name: %s", g->app);
		line(4, "app.kubernetes.io/instance: %s", g->instance);
	}
}

static void service(struct gen *g)
{
	char name[128];
	unsigned type = rnd(g, 10);

	if (!g->have_app) {
		const char *app = PICK(g, apps);

		snprintf(g->app, sizeof(g->app), "%s", app);
		snprintf(g->instance, sizeof(g->instance), "%s-svc-%lu", app,
			 g->index);
		snprintf(g->ns, sizeof(g->ns), "%s", PICK(g, namespaces));
	}
	snprintf(name, sizeof(name), "%s", g->instance);
	header(g, "service.yaml");
	line(0, "apiVersion: v1");
	line(0, "kind: Service");
	metadata(g, name, g->ns, g->app, false);
	line(0, "spec:");
	if (type < 6) {
		line(2, "type: ClusterIP");
	} else if (type < 8) {
		line(2, "type: LoadBalancer");
		line(2, "externalTrafficPolicy: %s", chance(g, 50) ? "Local"
								   : "Cluster");
	} else {
		line(2, "type: NodePort");
	}
	if (chance(g, 15)) {
		line(2, "sessionAffinity: ClientIP");
		line(2, "sessionAffinityConfig:");
		line(4, "clientIP:");
		line(6, "timeoutSeconds: 10800");
	}
	line(2, "selector:");
	broad_selector(g);
	line(2, "ports:");
	line(2, "- name: http");
	line(4, "port: 80");
	line(4, "targetPort: http");
	line(4, "protocol: TCP");
	if (chance(g, 40)) {
		line(2, "- name: metrics");
		line(4, "port: 9090");
		line(4, "targetPort: 9090");
	}
	g->have_app = false;	/* one Service per workload */
}

static void configmap(struct gen *g)
{
	char name[96];
	unsigned blocks = 1 + rnd(g, 3);
	const char *app = PICK(g, apps), *ns = PICK(g, namespaces);
	const char *word;

	snprintf(name, sizeof(name), "%s-config-%lu", app, g->index);
	header(g, "configmap.yaml");
	line(0, "apiVersion: v1");
	line(0, "kind: ConfigMap");
	metadata(g, name, ns, app, false);
	line(0, "data:");
	line(2, "LOG_LEVEL: %s", PICK(g, log_levels));
	line(2, "WORKERS: \"%u\"", 1 + rnd(g, 16));
	line(2, "ENABLE_TRACING: \"%s\"", chance(g, 50) ? "true" : "false");
	line(2, "TIMEOUT: 30s");
	for (unsigned b = 0; b < blocks; b++) {
		unsigned n = 10 + rnd(g, 20);

		switch (rnd(g, 3)) {
		case 0:
			line(2, "application-%u.properties: |", b);
			for (unsigned i = 0; i < n; i++)
				line(4, "app.module%u.setting%u=%s", b, i,
				     chance(g, 30) ? "true"
				     : PICK(g, apps));
			break;
		case 1:
			line(2, "nginx-%u.conf: |", b);
			line(4, "worker_processes auto;");
			line(4, "events { worker_connections 1024; }");
			line(4, "http {");
			for (unsigned i = 0; i < n / 3; i++) {
				line(6, "server {");
				line(8, "listen %u;", 8000 + i);
				line(8, "location /%s {", PICK(g, apps));
				word = PICK(g, apps);
				line(10, "proxy_pass http://%s:%u;", word,
				     8080 + rnd(g, 10));
				line(8, "}");
				line(6, "}");
			}
			line(4, "}");
			break;
		default:
			line(2, "settings-%u.json: |-", b);
			line(4, "{");
			for (unsigned i = 0; i < n; i++) {
				const char *on = chance(g, 50) ? "true"
							       : "false";

				word = PICK(g, apps);
				line(6, "\"%s_%u\": {\"enabled\": %s, "
				     "\"limit\": %u}%s", word, i, on,
				     rnd(g, 1000), i + 1 < n ? "," : "");
			}
			line(4, "}");
		}
	}
}

static void service_account(struct gen *g)
{
	char name[96];
	const char *app = PICK(g, apps);

	snprintf(name, sizeof(name), "%s-sa-%lu", app, g->index);
	header(g, "serviceaccount.yaml");
	line(0, "apiVersion: v1");
	line(0, "kind: ServiceAccount");
	metadata(g, name, PICK(g, namespaces), app, false);
	line(2, "annotations:");
	line(4, "eks.amazonaws.com/role-arn: arn:aws:iam::%012" PRIu64
	     ":role/%s", next(g) % UINT64_C(1000000000000), name);
	line(0, "automountServiceAccountToken: %s",
	     chance(g, 50) ? "true" : "false");
}

static void rules(struct gen *g, unsigned n)
{
	static const char *const groups[] = { "\"\"", "apps", "batch",
					      "networking.k8s.io",
					      "coordination.k8s.io" };
	static const char *const res[] = { "pods", "services", "configmaps",
					   "secrets", "deployments", "jobs",
					   "leases", "endpoints", "ingresses",
					   "events" };

	line(0, "rules:");
	for (unsigned i = 0; i < n; i++) {
		line(0, "- apiGroups: [%s]", PICK(g, groups));
		line(2, "resources:");
		line(2, "- %s", PICK(g, res));
		line(2, "- %s", PICK(g, res));
		if (chance(g, 50))
			line(2, "verbs: [\"get\", \"list\", \"watch\"]");
		else {
			line(2, "verbs:");
			line(2, "- get");
			line(2, "- list");
			line(2, "- watch");
			line(2, "- create");
			line(2, "- update");
			line(2, "- patch");
		}
	}
}

static void role(struct gen *g, bool cluster)
{
	char name[96];
	const char *app = PICK(g, apps);

	snprintf(name, sizeof(name), "%s-%s-%lu", app,
		 cluster ? "clusterrole" : "role", g->index);
	header(g, cluster ? "clusterrole.yaml" : "role.yaml");
	line(0, "apiVersion: rbac.authorization.k8s.io/v1");
	line(0, "kind: %s", cluster ? "ClusterRole" : "Role");
	metadata(g, name, cluster ? NULL : PICK(g, namespaces), app, false);
	rules(g, 2 + rnd(g, cluster ? 5 : 3));
}

static void role_binding(struct gen *g)
{
	char name[96];
	const char *app = PICK(g, apps);
	const char *ns = PICK(g, namespaces);

	snprintf(name, sizeof(name), "%s-rolebinding-%lu", app, g->index);
	header(g, "rolebinding.yaml");
	line(0, "apiVersion: rbac.authorization.k8s.io/v1");
	line(0, "kind: RoleBinding");
	metadata(g, name, ns, app, false);
	line(0, "roleRef:");
	line(2, "apiGroup: rbac.authorization.k8s.io");
	line(2, "kind: Role");
	line(2, "name: %s-role", app);
	line(0, "subjects:");
	line(0, "- kind: ServiceAccount");
	line(2, "name: %s-sa", app);
	line(2, "namespace: %s", ns);
}

/* Kinds and their weights (percent of objects). */
static const struct {
	void (*fn)(struct gen *g);
	unsigned weight;
} mix[] = {
	{ deployment, 21 },
	{ service, 17 },
	{ configmap, 14 },
	{ statefulset, 4 },
	{ daemonset, 3 },
	{ job, 3 },
	{ cronjob, 3 },
	{ service_account, 12 },
	{ role_binding, 10 },
	{ NULL, 13 },	/* Role or ClusterRole */
};

/* --broad: workloads and the Services that select them. */
static const struct {
	void (*fn)(struct gen *g);
	unsigned weight;
} broad_mix[] = {
	{ deployment, 70 },
	{ daemonset, 6 },
	{ job, 14 },
	{ service, 10 },
};

static void object(struct gen *g)
{
	unsigned r = rnd(g, 100);

	if (g->broad) {
		for (size_t i = 0; i < sizeof(broad_mix) / sizeof(broad_mix[0]);
		     i++) {
			if (r < broad_mix[i].weight) {
				broad_mix[i].fn(g);
				return;
			}
			r -= broad_mix[i].weight;
		}
	}

	for (size_t i = 0; i < sizeof(mix) / sizeof(mix[0]); i++) {
		if (r < mix[i].weight) {
			if (mix[i].fn)
				mix[i].fn(g);
			else
				role(g, chance(g, 30));
			return;
		}
		r -= mix[i].weight;
	}
	deployment(g);
}

/* The profile at path (if any) as the ResourceList's functionConfig. */
static bool function_config(const char *path)
{
	char buf[4096];
	FILE *f;

	if (!path || !*path)
		return true;
	f = fopen(path, "r");
	if (!f) {
		perror(path);
		return false;
	}
	fputs("functionConfig:\n", stdout);
	while (fgets(buf, sizeof(buf), f))
		printf("%s%s", buf[0] == '\n' ? "" : "  ", buf);
	fclose(f);
	return true;
}

int main(int argc, char **argv)
{
	static char obuf[1 << 20];
	struct gen g = { .rng = SEED };
	unsigned long n;
	char *end;

	if (argc >= 3 && strcmp(argv[1], "--resourcelist") == 0) {
		as_items = true;
		argv++;
		argc--;
	}
	if (argc == 3 && strcmp(argv[1], "--broad") == 0) {
		g.broad = true;
		argv++;
		argc--;
	}
	if (argc != 2 || !*argv[1]) {
		fprintf(stderr, "usage: gen [--resourcelist] [--broad] N > "
			"stream.yaml\n");
		return 2;
	}
	n = strtoul(argv[1], &end, 10);
	if (*end) {
		fprintf(stderr, "gen: '%s' is not a number\n", argv[1]);
		return 2;
	}
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (as_items)
		fputs("apiVersion: config.kubernetes.io/v1\n"
		      "kind: ResourceList\nitems:\n", stdout);
	for (g.index = 0; g.index < n; g.index++)
		object(&g);
	if (as_items && !function_config(getenv("WINGEN_BENCH_PROFILE")))
		return 1;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("gen: cannot write");
		return 1;
	}
	return 0;
}
