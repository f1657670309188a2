#ifndef WINGEN_K8S_KEYS_H
#define WINGEN_K8S_KEYS_H

/*
 * Well-known label, annotation and apiVersion strings, defined once.
 *
 * Kubernetes' own keys are those of k8s.io/api/core/v1/well_known_labels.go
 * (kubernetes.io/os, kubernetes.io/arch and their deprecated beta.
 * spellings, node.kubernetes.io/windows-build); the KRM function keys are
 * those of the kustomize kyaml "kioutil" package and the KRM Functions
 * Specification (config.kubernetes.io/...); wingen's own keys live under
 * wingen.dev/.  Code compares and writes these macros, never the literals.
 */

/* Node labels (k8s.io/api/core/v1/well_known_labels.go). */
#define WG_LABEL_OS "kubernetes.io/os"
#define WG_LABEL_ARCH "kubernetes.io/arch"
#define WG_LABEL_OS_BETA "beta.kubernetes.io/os"	/* deprecated */
#define WG_LABEL_ARCH_BETA "beta.kubernetes.io/arch"	/* deprecated */
#define WG_LABEL_WINDOWS_BUILD "node.kubernetes.io/windows-build"

/* wingen's annotations on a workload (docs/profile.md). */
#define WG_DOMAIN "wingen.dev/"
#define WG_ANNOTATION_WINDOWS WG_DOMAIN "windows"
#define WG_ANNOTATION_BUILD WG_DOMAIN "windows-build"
#define WG_ANNOTATION_BUILDS WG_DOMAIN "windows-builds"
/* The pod label that keeps fan-out's copies apart (selector and pods). */
#define WG_LABEL_BUILD WG_DOMAIN "windows-build"
/* The profile's apiVersion. */
#define WG_PROFILE_API_VERSION WG_DOMAIN "v1alpha1"

/* KRM function annotations (kyaml kioutil; KRM Functions Specification). */
#define WG_KRM_PREFIX "config.kubernetes.io/"
#define WG_KRM_INTERNAL_PREFIX "internal.config.kubernetes.io/"
#define WG_KRM_ID_PREFIX "config.k8s.io/"
#define WG_KUSTOMIZE_ID_PREFIX "kustomize.config.k8s.io/"
#define WG_KRM_PATH WG_KRM_INTERNAL_PREFIX "path"
#define WG_KRM_INDEX WG_KRM_INTERNAL_PREFIX "index"
#define WG_KRM_ID WG_KRM_INTERNAL_PREFIX "id"
#define WG_KRM_PATH_LEGACY WG_KRM_PREFIX "path"
#define WG_KRM_INDEX_LEGACY WG_KRM_PREFIX "index"
#define WG_KRM_LOCAL_CONFIG WG_KRM_PREFIX "local-config"
#define WG_KRM_CONFIG_ID WG_KRM_ID_PREFIX "id"
#define WG_KUSTOMIZE_ID WG_KUSTOMIZE_ID_PREFIX "id"
/* ResourceList apiVersions. */
#define WG_KRM_V1 WG_KRM_PREFIX "v1"
#define WG_KRM_V1BETA1 WG_KRM_PREFIX "v1beta1"
#define WG_KRM_V2ALPHA1 WG_KRM_PREFIX "v2alpha1"

#endif
