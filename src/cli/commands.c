/*
 * The command table, and help (too small for a file of its own).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "wingen/chain/registry.h"
#include "wingen/core/plugin.h"

const struct wg_command wg_commands[] = {
	{
		"build", wg_cmd_build,
		"build [PROFILE|-] [-f PATH]... [-o yaml|json] [--output-file "
		"FILE] [--explain] [--strict] [--diff] [--check] "
		"[--print-profile] [--no-runtimeclasses | "
		"--only-runtimeclasses] [-j N] [--nodes NODES] "
		"[--retarget OLD=NEW]...",
		"Render manifests for a mixed Linux/Windows cluster.",
		"Reads manifests from the profile's resources: and every -f PATH\n"
		"(a file, a folder of *.yaml, *.yml and *.json files, or - for\n"
		"stdin), and from stdin when there are none; runs the profile's\n"
		"chain of generators and transforms, and writes the result as one\n"
		"stream.  On any error nothing is written and the exit status is 1;\n"
		"no object read is an error too (runtimeclasses prints the\n"
		"RuntimeClasses alone).  RuntimeClasses come only with a Windows\n"
		"workload that needs one.  The input is one apply stream: the same\n"
		"object twice is an error saying what differs, or, identical, one\n"
		"object (the second is dropped with a note).  A kustomization, and\n"
		"a file that a kustomization in its folder names as a patch, is\n"
		"not an object: it is an error (kubectl kustomize DIR | wingen\n"
		"build PROFILE -f - reads what kustomize renders).\n"
		"Without PROFILE the embedded default profile is used: ltsc2022,\n"
		"amd64, taint os=windows:NoSchedule, Windows workloads picked by\n"
		"images that name Windows on any registry (servercore:ltsc2022,\n"
		"app:2.4.1-ltsc2022, agent:3.8.0-windows-ltsc-2022) or by pods\n"
		"that already target Windows.  PROFILE - reads the profile from\n"
		"stdin; the manifests then come from -f.\n\n"
		"--check and --diff exit as kubectl diff: 0 nothing would change,\n"
		"1 something would, 2 the run could not answer (bad input, a\n"
		"conflict, I/O, usage).\n\n"
		"options:\n"
		"  -f, --filename PATH      input file, folder or - (repeatable;\n"
		"                           a,b is two paths, as in kubectl)\n"
		"  -R, --recursive          accepted: folders are always recursive\n"
		"  -k, --kustomize DIR      a usage error: kubectl kustomize DIR |\n"
		"                           wingen build PROFILE -f - reads it\n"
		"  -o, --output FORMAT      yaml (default) or json (one object a line)\n"
		"      --output-file FILE   write to FILE atomically (default: stdout)\n"
		"      --explain            print every change and why on stderr\n"
		"      --strict             treat warnings as errors\n"
		"      --diff               print a unified diff per object (as\n"
		"                           read -> as built) instead of the stream\n"
		"      --check              write nothing; list the objects that\n"
		"                           would change on stderr (exit 1 if any)\n"
		"      --print-profile      print the profile in effect and exit\n"
		"      --no-runtimeclasses  generate no RuntimeClass (they are\n"
		"                           cluster-scoped and belong to no release;\n"
		"                           see runtimeclasses); a Windows pod naming\n"
		"                           one the profile does not define is an\n"
		"                           error.  Helm's post-renderer is\n"
		"                           post-render, which also reads stdin alone\n"
		"      --only-runtimeclasses  write the profile's RuntimeClasses\n"
		"                           alone, reading no manifests (the same as\n"
		"                           wingen runtimeclasses)\n"
		"  -j, --jobs N             read large inputs and write the YAML on\n"
		"                           N threads (the same output; default:\n"
		"                           the CPUs, at most 4)\n"
		"      --nodes NODES        the cluster's nodes (kubectl get nodes\n"
		"                           -o json: a file, a folder, or - when\n"
		"                           the manifests are not on stdin): every\n"
		"                           build, RuntimeClass and workload must\n"
		"                           fit some node, else an error and\n"
		"                           nothing written (repeatable)\n"
		"      --retarget OLD=NEW   retire release OLD: its workloads move\n"
		"                           to NEW, a build of the profile (build\n"
		"                           values, RuntimeClass names, images,\n"
		"                           wingen.dev/ annotations); RuntimeClasses\n"
		"                           of OLD nothing names are dropped; as\n"
		"                           windows.retarget (repeatable)\n"
		"      --templates DIR      templates overriding the embedded ones\n"
		"      --load-restrictor R  rootonly (default): the profile's files\n"
		"                           must lie in its folder; none: anywhere\n"
		"  -h, --help               show this help\n",
	},
	{
		"post-render", wg_cmd_post_render,
		"post-render [PROFILE] [-o yaml|json] [--output-file FILE] "
		"[--strict] [--explain] [-j N] [--nodes NODES] "
		"[--retarget OLD=NEW]...",
		"Be Helm's post-renderer: transform the release on stdin, add "
		"nothing.",
		"Reads the manifests Helm rendered on stdin, runs the profile's\n"
		"chain as build does, and writes them back: what it was given,\n"
		"transformed, never more.  The profile's resources: are not read\n"
		"(build reads them with -f and stdin; a post-renderer adds\n"
		"nothing to a release), no RuntimeClass is generated (they are\n"
		"cluster-scoped and belong to no release: install them once with\n"
		"wingen runtimeclasses PROFILE | kubectl apply -f -), and a\n"
		"Windows pod naming one the profile does not define is an error.\n"
		"A release with no object (Helm 3 sends none of a chart of hooks\n"
		"alone) comes back empty, exit 0.  On any error nothing is\n"
		"written and the exit status is 1, so Helm stops.\n"
		"  helm install app ./chart --post-renderer wingen \\\n"
		"       --post-renderer-args post-render --post-renderer-args P\n"
		"(Helm 3; Helm 4 takes a plugin: examples/helm/wingen).\n\n"
		"options:\n"
		"  -o, --output FORMAT      yaml (default) or json (one object a line)\n"
		"      --output-file FILE   write to FILE atomically (default: stdout)\n"
		"      --strict             treat warnings as errors\n"
		"      --explain            print every change and why on stderr\n"
		"  -j, --jobs N             threads for a large release\n"
		"      --nodes NODES        the cluster's nodes, a file or folder\n"
		"                           (stdin holds the release), as for build\n"
		"      --retarget OLD=NEW   as for build (repeatable)\n"
		"      --templates DIR      templates overriding the embedded ones\n"
		"      --load-restrictor R  rootonly (default) or none, as for build\n"
		"  -h, --help               show this help\n",
	},
	{
		"builds", wg_cmd_builds,
		"builds [-o table|json] [--output-file FILE] [--images]",
		"Print the catalog of Windows Server builds wingen knows.",
		"One row per release: build number (the node.kubernetes.io/\n"
		"windows-build label), the names a profile may use, base-image\n"
		"tags, the releases whose images a host of it runs with process\n"
		"isolation, and whether Kubernetes supports it.  With --images,\n"
		"the image families instead: Microsoft's repositories, how their\n"
		"tags name a release, and which .NET Framework versions exist on\n"
		"which release.\n\n"
		"options:\n"
		"  -o, --output FORMAT      table (default) or json\n"
		"      --output-file FILE   write to FILE atomically (default: stdout)\n"
		"      --images             the image families\n"
		"  -h, --help               show this help\n",
	},
	{
		"check", wg_cmd_check,
		"check [PROFILE|-] [-f PATH]... [-o text|json|sarif] [--output-file "
		"FILE] [--strict] [--nodes NODES] [--retarget OLD=NEW]...",
		"Run the chain as build does and report, writing no manifests.",
		"Reads the same inputs as build and runs the same chain, then\n"
		"prints every diagnostic (errors, warnings, notes) on stdout, one\n"
		"line each (file:line:col: severity: Kind/name: field: message),\n"
		"and a summary line; with -o json, one JSON document with the\n"
		"diagnostics and every change the chain would make; with -o sarif,\n"
		"a SARIF 2.1.0 log for code scanning (docs/check.md: both formats,\n"
		"the rule of each diagnostic).  Exit status 1 when there is an\n"
		"error (with --strict, a warning too), else 0: a gate for CI.\n"
		"With --nodes, also whether the result fits the cluster: every\n"
		"build of the profile has a node, every RuntimeClass selects one\n"
		"and tolerates its taints, and every workload can be placed on\n"
		"one (its nodeSelector, required node affinity and tolerations,\n"
		"its RuntimeClass's).\n"
		"PROFILE - reads the profile from stdin, as for build.  The input\n"
		"is one apply stream, as for build (duplicates, kustomizations).\n\n"
		"options:\n"
		"  -f, --filename PATH      input file, folder or - (repeatable;\n"
		"                           a,b is two paths, as in kubectl)\n"
		"  -R, --recursive          accepted: folders are always recursive\n"
		"  -k, --kustomize DIR      a usage error: kubectl kustomize DIR |\n"
		"                           wingen check PROFILE -f - reads it\n"
		"  -o, --output FORMAT      text (default), json or sarif\n"
		"      --output-file FILE   write the report to FILE atomically\n"
		"                           (default: stdout)\n"
		"      --strict             treat warnings as errors\n"
		"      --nodes NODES        the cluster's nodes (kubectl get nodes\n"
		"                           -o json: a file, a folder, or - when\n"
		"                           the manifests are not on stdin)\n"
		"      --retarget OLD=NEW   move the workloads of release OLD to\n"
		"                           build NEW, as for build (repeatable)\n"
		"      --templates DIR      templates overriding the embedded ones\n"
		"      --load-restrictor R  rootonly (default) or none, as for build\n"
		"  -h, --help               show this help\n",
	},
	{
		"fn", wg_cmd_fn, "fn",
		"Run as a KRM function: ResourceList on stdin and stdout.",
		"For kpt (kpt fn eval DIR --exec wingen, a Kptfile pipeline) and\n"
		"kustomize exec functions.  Reads one ResourceList (apiVersion\n"
		"config.kubernetes.io/v1, v1beta1 or v2alpha1) and writes one back\n"
		"with the same apiVersion: the items after the chain, with every\n"
		"annotation kept, generated RuntimeClasses first (annotated with\n"
		"the path runtimeclasses.yaml), and results: each diagnostic and\n"
		"each change (severity info, with field path and values).  Items\n"
		"marked config.kubernetes.io/local-config: \"true\" and the\n"
		"Kptfile pass through untouched.  An empty items list comes back\n"
		"as it went in (exit 0, no RuntimeClass added), as KRM has it.\n"
		"The items are one stream: the same object twice is an error\n"
		"saying what differs, or, identical, a note (both kept: dropping\n"
		"one would delete it from kpt's files).\n"
		"The ResourceList is written even\n"
		"on failure (then with the items unchanged); the exit status is 1\n"
		"exactly when a result is an error.  \"wingen\" with no command\n"
		"and a ResourceList on stdin does the same.\n\n"
		"functionConfig:\n"
		"  none                     the embedded default profile\n"
		"  a wingen.dev/v1alpha1 Profile (kpt --fn-config profile.yaml)\n"
		"  a ConfigMap (kpt: -- key=value ...; Kptfile: configMap:) whose\n"
		"  data keys change the default profile:\n"
		"    release=R              one build: ltsc2022, 2019, 10.0.20348...\n"
		"    releases=R1,R2         several builds; the first is the default\n"
		"    default=R              build of a workload that names none\n"
		"    arch=amd64|arm64       architecture of every build\n"
		"    handler=H              CRI handler of every build\n"
		"    runtimeClass=NAME      RuntimeClass name (one build only)\n"
		"    taint=K=V:EFFECT       taint of Windows nodes (or K:EFFECT)\n"
		"    select-image=RE        Windows workloads: an image matches RE;\n"
		"    select-kinds=K1,K2     ... and of these kinds;\n"
		"    select-name=RE         ... and the name matches (anchored);\n"
		"    select-namespace=RE    ... and the namespace matches;\n"
		"    label-selector=SEL     ... and the labels match (app=web);\n"
		"    annotation-selector=SEL  ... and the annotations match\n"
		"                           (any select key makes this one entry\n"
		"                           the select; an image that names\n"
		"                           Windows it leaves out is an error)\n"
		"    linux-pin=true|false   pin every other workload to Linux\n"
		"    services-fix=true|false  fix Services of Windows pods\n"
		"    network-mode=overlay|l2bridge\n"
		"    dsr=true|false         kube-proxy on Windows runs with DSR\n"
		"    transforms=P1,P2       the plugin chain\n"
		"    strict=true|false      warnings are errors\n"
		"    nodes=TEXT             the cluster's nodes, the text of kubectl\n"
		"                           get nodes -o json (or -o yaml): the\n"
		"                           result is checked against them as by\n"
		"                           check --nodes\n"
		"    workloads=TEXT         more workload kinds, the YAML text of a\n"
		"                           profile's workloads: list\n\n"
		"nodes:\n"
		"  Node items marked config.kubernetes.io/local-config: \"true\"\n"
		"  (kept in the ResourceList; kustomize drops local-config objects\n"
		"  from its output) are the cluster's nodes too, as nodes= is.\n\n"
		"options:\n"
		"  -h, --help               show this help\n",
	},
	{
		"fmt", wg_cmd_fmt,
		"fmt [-f PATH]... [-o yaml|json] [--output-file FILE] [-j N]",
		"Read manifests and write them back unchanged (no plugins).",
		"Empty documents are dropped and Lists expanded; everything else\n"
		"comes out semantically equal, in the style it went in with.\n"
		"Comments are dropped (libyaml's parser does not report them);\n"
		"wingen migrate edits files as text and keeps them.\n\n"
		"options:\n"
		"  -f, --filename PATH      input file, folder or - (repeatable;\n"
		"                           a,b is two paths, as in kubectl)\n"
		"  -R, --recursive          accepted: folders are always recursive\n"
		"  -k, --kustomize DIR      a usage error: kubectl kustomize DIR |\n"
		"                           wingen fmt -f - reads it\n"
		"  -o, --output FORMAT      yaml (default) or json (one object a line)\n"
		"      --output-file FILE   write to FILE atomically (default: stdout)\n"
		"  -j, --jobs N             2 or more: parse on a thread of its own\n"
		"                           while writing (the same output; default:\n"
		"                           the CPUs, at most 4)\n"
		"  -h, --help               show this help\n",
	},
	{
		"init", wg_cmd_init,
		"init [-f NODES]... [-o yaml] [--output-file FILE]",
		"Write a profile from the cluster's nodes.",
		"Start here: kubectl get nodes -o json | wingen init > profile.yaml\n\n"
		"Reads the nodes as kubectl prints them (get nodes -o json or\n"
		"-o yaml: a List, one Node, or a stream; from -f or stdin) and\n"
		"writes a commented profile that build loads as it is: one build\n"
		"per Windows build and arch the nodes run (the\n"
		"node.kubernetes.io/windows-build label, else nodeInfo's kernel\n"
		"version or OS image, with a warning), each with the handler of\n"
		"the runtime its nodes run (containerd: runhcs-wcow-process;\n"
		"docker: docker), the build with the most nodes as the default,\n"
		"and the taint every Windows node carries.  Warnings (on stderr)\n"
		"for nodes left out, builds the catalogue does not know, taints\n"
		"that differ or are missing.  No Windows node, or an object that\n"
		"is not a Node, is an error: nothing is written, exit status 1.\n\n"
		"options:\n"
		"  -f, --filename NODES     the nodes: a file, a folder or - (the\n"
		"                           default: stdin; repeatable)\n"
		"  -o, --output FORMAT      yaml (the only one: a profile)\n"
		"      --output-file FILE   write to FILE atomically (default: stdout)\n"
		"  -h, --help               show this help\n",
	},
	{
		"migrate", wg_cmd_migrate,
		"migrate [PROFILE] PATH... (--in-place | --diff | --check | "
		"--values-out FILE) [--reformat-fallback] [--runtimeclass-file FILE] [-j N] "
		"[-f VALUES]... [--set K=V]... [--set-string K=V]... "
		"[--helm PATH] [--helm-arg ARG]... [--retarget OLD=NEW]...",
		"Rewrite manifest files in place, keeping comments and layout.",
		"Runs the same chain as build over the *.yaml and *.yml files of\n"
		"every PATH (files or folders, recursively), then writes each change\n"
		"back into the files as a text edit: a new key gets the indentation\n"
		"of its siblings, a changed value keeps its quoting, a removed key\n"
		"takes its lines (full comment lines among them stay).  Comments,\n"
		"blank lines, key order, CRLF line ends and a missing final line\n"
		"break survive; git diff shows only what changed.  The first\n"
		"argument is the PROFILE when it is meant as one (apiVersion\n"
		"wingen.dev/..., or kind Profile in any case); one that fails to\n"
		"load is an error.  Without it the embedded default profile is\n"
		"used.  Helm templates that do not read as YAML and files without\n"
		"Kubernetes objects are skipped and listed; a skipped file naming a\n"
		"workload is a warning, and with --strict every skip is an error;\n"
		"no file left to migrate is an error.  PROFILE - reads the profile\n"
		"from stdin.\n\n"
		"A repository is many streams: each kustomize root (a folder with\n"
		"a kustomization, and what its resources:, bases: and components:\n"
		"build) and each file no root builds is judged alone, as build\n"
		"judges it given that stream alone (duplicates, the workloads a\n"
		"Service selects, the RuntimeClasses needed), so variants of one\n"
		"app side by side each migrate as build makes them.\n\n"
		"Generated RuntimeClasses (only for a Windows workload that needs\n"
		"one) of the files alone go to 00-runtimeclasses.yaml (a name\n"
		"kubectl apply -f DIR applies first) in the first PATH that is a\n"
		"folder (or next to the first file); a kustomize root no other\n"
		"root builds gets its own beside its kustomization, listed in its\n"
		"resources: (a text edit, comments kept).  An object that cannot be\n"
		"edited safely as text (a change inside a flow collection written\n"
		"over several lines, an anchor or alias, a multi-line plain scalar)\n"
		"is an error naming file:line, unless --reformat-fallback.  On any\n"
		"error no file is changed, nothing is printed and the exit status\n"
		"is 1.  A second run changes nothing.  --diff and --check exit as\n"
		"kubectl diff (and build --check): 0 nothing would change, 1 some\n"
		"file would, 2 the run could not answer (bad input, a conflict,\n"
		"I/O, usage); --check judges each stream as migrate does, the CI\n"
		"gate for a repository of variants or kustomize roots.\n\n"
		"A PATH that is a folder holding Chart.yaml is a Helm chart source\n"
		"(docs/helm.md): it is rendered with the real helm template, the\n"
		"chain runs on the render (no RuntimeClass: see runtimeclasses),\n"
		"and each change is written as the values key that feeds the field\n"
		"into values.yaml (--in-place, --diff) or into an overlay file\n"
		"(--values-out, the chart untouched).  Nothing is written unless a\n"
		"second render with the result needs no change.  A change no values\n"
		"key carries is made in the template's literal YAML (--in-place,\n"
		"--diff) where it can be; otherwise it is an error naming the\n"
		"template line and the field.  A values key that also feeds another\n"
		"object whose field must stay (a Linux DaemonSet sharing it with a\n"
		"Windows one) is never written: the Windows template's literal YAML\n"
		"takes the change, or it is an error naming both.  Packed subcharts\n"
		"(charts/*.tgz) are read in memory; their templates are not edited.\n\n"
		"options:\n"
		"      --in-place           rewrite the files (atomically, all or none)\n"
		"      --diff               print a unified diff, change nothing\n"
		"      --check              change and print nothing; list the\n"
		"                           files that would change on stderr\n"
		"      --values-out FILE    a chart: write the values to FILE, an\n"
		"                           overlay for helm -f, not into the chart\n"
		"      --helm PATH          a chart: the helm to run (default:\n"
		"                           $WINGEN_HELM, else helm on PATH)\n"
		"      --helm-arg ARG       a chart: one argument for helm template,\n"
		"                           as is (repeatable: the namespace, the\n"
		"                           Kubernetes version, ...)\n"
		"  -f, --values FILE        a chart: a values file, as for helm\n"
		"                           template (repeatable; also read by\n"
		"                           wingen, and used by the second render)\n"
		"      --set K=V            a chart: values as helm --set takes them\n"
		"                           (repeatable; likewise)\n"
		"      --set-string K=V     a chart: as --set, every value a string\n"
		"  -R, --recursive          accepted: folders are always recursive\n"
		"  -k, --kustomize DIR      a usage error: give the folder itself\n"
		"      --reformat-fallback  re-emit a document that cannot be edited\n"
		"                           as text with the YAML writer (its inner\n"
		"                           comments are lost)\n"
		"      --runtimeclass-file FILE\n"
		"                           where generated RuntimeClasses of the\n"
		"                           files alone go\n"
		"                           (what FILE holds is kept unless\n"
		"                           generated again)\n"
		"      --strict             treat warnings and skipped files as errors\n"
		"  -j, --jobs N             read the files on N threads (the same\n"
		"                           result and messages; default: the CPUs,\n"
		"                           at most 4)\n"
		"      --retarget OLD=NEW   move the workloads of release OLD to\n"
		"                           build NEW, as for build; a document\n"
		"                           whose RuntimeClass of OLD nothing names\n"
		"                           any more is deleted, and a file left\n"
		"                           with nothing is removed (repeatable)\n"
		"      --templates DIR      templates overriding the embedded ones\n"
		"      --load-restrictor R  rootonly (default) or none, as for build\n"
		"  -h, --help               show this help\n",
	},
	{
		"runtimeclasses", wg_cmd_runtimeclasses,
		"runtimeclasses [PROFILE|-] [-o yaml|json] [--output-file FILE]",
		"Print the profile's RuntimeClasses, installed once per cluster.",
		"Writes one node.k8s.io/v1 RuntimeClass per build of the profile\n"
		"(the embedded default profile without PROFILE), and nothing else.\n"
		"A RuntimeClass is cluster-scoped: rendered into a Helm release it\n"
		"belongs to that release, and a second release rendering the same\n"
		"one fails Helm's ownership check.  So a post-renderer emits none\n"
		"(wingen post-render) and the cluster is bootstrapped once:\n"
		"  wingen runtimeclasses profile.yaml | kubectl apply -f -\n\n"
		"options:\n"
		"  -o, --output FORMAT      yaml (default) or json (one object a line)\n"
		"      --output-file FILE   write to FILE atomically (default: stdout)\n"
		"      --templates DIR      templates overriding the embedded ones\n"
		"      --load-restrictor R  rootonly (default) or none, as for build\n"
		"  -h, --help               show this help\n",
	},
	{
		"completion", wg_cmd_completion,
		"completion bash|zsh|fish [--output-file FILE]",
		"Print the shell completion script for bash, zsh or fish.",
		"Writes a completion script made from wingen's own tables of\n"
		"commands and options: commands, options, the values of -o and\n"
		"the other options with a fixed set, file names where a file goes,\n"
		"release names for --retarget.  Load it:\n"
		"  bash: source <(wingen completion bash)   (cmake --install puts\n"
		"        it in share/bash-completion/completions already)\n"
		"  zsh:  source <(wingen completion zsh)    (after compinit), or\n"
		"        wingen completion zsh > \"${fpath[1]}/_wingen\"\n"
		"  fish: wingen completion fish | source, or\n"
		"        wingen completion fish > ~/.config/fish/completions/wingen.fish\n\n"
		"options:\n"
		"      --output-file FILE   write to FILE atomically (default: stdout)\n"
		"  -h, --help               show this help\n",
	},
	{
		"schema", wg_cmd_schema,
		"schema [-o json] [--output-file FILE]",
		"Print the profile's JSON Schema (for editors and validators).",
		"Writes the JSON Schema (2020-12) of a profile: every key with\n"
		"its type and one line on it, and the values the loader takes\n"
		"(releases and their aliases, arches, taint effects, handlers,\n"
		"network modes, plugin names).  It is made from the tables wingen\n"
		"loads a profile with; docs/profile.schema.json is its output.\n"
		"A YAML editor with yaml-language-server validates and completes\n"
		"a profile whose first line is\n"
		"  # yaml-language-server: $schema=PATH-OR-URL/profile.schema.json\n\n"
		"options:\n"
		"  -o, --output FORMAT      json (the only one)\n"
		"      --output-file FILE   write to FILE atomically (default: stdout)\n"
		"  -h, --help               show this help\n",
	},
	{
		"serve", wg_cmd_serve,
		"serve [PROFILE] --tls-cert-file FILE --tls-private-key-file "
		"FILE [--port N] [--address ADDR] [--audit] [--kinds LIST] "
		"[--log-format text|json]",
		"Serve the profile as an admission webhook (HTTPS).",
		"The profile at admission time, for the pods no render step\n"
		"sees (operators, controllers, CI runners, kubectl run): the\n"
		"API server sends each new Pod in an AdmissionReview, and the\n"
		"profile's chain (the code build runs, without RuntimeClasses)\n"
		"answers with a JSON Patch that makes the pod what wingen build\n"
		"makes of it.  Without PROFILE (or with -) the embedded default.\n"
		"  POST /mutate     the patch; a conflict build calls an error is\n"
		"                   allowed: false naming the field; warnings\n"
		"                   go to the kubectl user\n"
		"  POST /validate   no patch: what the chain would change, or\n"
		"                   an error, is denied\n"
		"  GET /healthz, /readyz (not ready until the profile and the\n"
		"                   certificate load; not while stopping),\n"
		"                   /metrics (Prometheus)\n"
		"The profile and the certificate are reloaded on SIGHUP and when\n"
		"their files change (a kubelet swaps a mounted ConfigMap or\n"
		"Secret); one that does not load keeps the old one, is logged\n"
		"and counted.  SIGTERM stops taking connections, lets requests\n"
		"in flight finish and exits 0.  One log line per request on\n"
		"stderr.  See docs/serve.md and deploy/helm/wingen.\n\n"
		"options:\n"
		"      --tls-cert-file FILE   PEM certificate (then its chain) for\n"
		"                           the webhook's Service DNS name\n"
		"      --tls-private-key-file FILE  its PEM private key\n"
		"      --port N             HTTPS port (default 8443)\n"
		"      --address ADDR       listen on this IPv4 or IPv6 address\n"
		"                           only (default: every address)\n"
		"      --audit              warn, never deny (both endpoints)\n"
		"      --kinds LIST         kinds to review, comma-separated:\n"
		"                           Pod (default), workload kinds of the\n"
		"                           kinds table (Deployment, Job, ...),\n"
		"                           or all (with the profile's workloads:)\n"
		"      --log-format F       text (logfmt, default) or json\n"
		"      --log-level L        debug, info (default: every\n"
		"                           request), warn (denials and\n"
		"                           problems) or error\n"
		"      --threads N          worker threads (default: the CPUs)\n"
		"      --max-connections N  open connections at most (default\n"
		"                           1024)\n"
		"      --idle-timeout S     close a connection silent for S\n"
		"                           seconds (default 30)\n"
		"      --shutdown-delay S   after SIGTERM, serve on for S seconds\n"
		"                           before closing the port (default 0)\n"
		"      --shutdown-timeout S  wait at most S seconds for requests\n"
		"                           in flight (default 25)\n"
		"  -h, --help               show this help\n",
	},
	{
		"version", wg_cmd_version,
		"version [-o text|json] [--output-file FILE] [--short]",
		"Print the version of wingen and of the libraries it uses.",
		"One line for wingen, one for the git commit it was built from\n"
		"(\"unknown\" for a build outside a git checkout; \"(dirty)\" when\n"
		"tracked files had changes), then one per library (libyaml,\n"
		"libcyaml, PCRE2, zlib, libmicrohttpd, GnuTLS, yajl): the version\n"
		"wingen was built with and the one it runs with now (a shared\n"
		"library can be upgraded under the binary).\n\n"
		"options:\n"
		"  -o, --output FORMAT      text (default) or json: {version,\n"
		"                           gitCommit, gitTreeState, libraries:\n"
		"                           [{name, builtWith, running}]}\n"
		"      --output-file FILE   write to FILE atomically (default: stdout)\n"
		"      --short              the version alone, with the commit as\n"
		"                           helm's: 0.1.0+g1a2b3c4d5e6f\n"
		"  -h, --help               show this help\n",
	},
	{
		"help", wg_cmd_help, "help [COMMAND|plugins]",
		"Show the commands, or one command's options.", "",
	},
	{ NULL, NULL, NULL, NULL, NULL },
};

/* wingen help plugins: what a profile's transforms: may list, in the
 * default chain's order. */
static int help_plugins(void)
{
	puts("plugins (the default chain, in order):");
	for (size_t i = 0; wg_plugins[i]; i++)
		printf("  %-20s %s%s\n", wg_plugins[i]->name,
		       wg_plugins[i]->kind == WG_PLUGIN_GENERATOR
		       ? "(generator) " : "", wg_plugins[i]->summary);
	return WG_EXIT_OK;
}

int wg_cmd_help(int argc, char **argv)
{
	static const struct wg_opt opts[] = { WG_OPT_END };
	struct wg_pathlist args = { 0 };
	int rc = wg_parse_options("help", argc, argv, opts, &args);
	bool named = rc == 0 && args.len;

	if (named && args.len > 1)
		rc = wg_usage_error("help", "unexpected argument '%s'",
				    args.items[1]);
	else if (named)
		rc = strcmp(args.items[0], "plugins") == 0
		     ? help_plugins() : wg_print_help(args.items[0]);
	wg_pathlist_release(&args);
	if (named || rc > 0 || wg_cli_describing())
		return rc > 0 ? rc : WG_EXIT_OK;
	puts("usage: wingen COMMAND [OPTIONS]\n\n"
	     "Render Kubernetes manifests for clusters that mix Linux and "
	     "Windows nodes.\n\ncommands:");
	for (const struct wg_command *c = wg_commands; c->name; c++)
		printf("  %-15s %s\n", c->name, c->summary);
	puts("\nRun 'wingen help COMMAND' or 'wingen COMMAND --help' for a "
	     "command's options,\n'wingen help plugins' for the plugins a "
	     "profile can chain.\nExit status: 0 success, 1 failure, 2 usage "
	     "error.");
	return WG_EXIT_OK;
}
