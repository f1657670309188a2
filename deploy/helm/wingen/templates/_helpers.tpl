{{/* The release's name for every object. */}}
{{- define "wingen.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "wingen.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "wingen.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "wingen.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "wingen.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The profile's ConfigMap, or "" for the embedded default. */}}
{{- define "wingen.profileConfigMap" -}}
{{- if .Values.existingProfileConfigMap -}}
{{- .Values.existingProfileConfigMap -}}
{{- else if .Values.profile -}}
{{- printf "%s-profile" (include "wingen.fullname" .) -}}
{{- end -}}
{{- end -}}

{{/* certManager or selfSigned, from certificates.mode. */}}
{{- define "wingen.certMode" -}}
{{- $m := .Values.certificates.mode -}}
{{- if eq $m "auto" -}}
{{- if .Capabilities.APIVersions.Has "cert-manager.io/v1" -}}certManager{{- else -}}selfSigned{{- end -}}
{{- else if or (eq $m "certManager") (eq $m "selfSigned") -}}
{{- $m -}}
{{- else -}}
{{- fail (printf "certificates.mode: %q is not auto, certManager or selfSigned" $m) -}}
{{- end -}}
{{- end -}}

{{- define "wingen.tlsSecret" -}}
{{- printf "%s-tls" (include "wingen.fullname" .) -}}
{{- end -}}

{{/* The API group and resource of each kind wingen reviews. */}}
{{- define "wingen.rules" -}}
{{- $map := dict "Pod" (list "" "pods") "Deployment" (list "apps" "deployments") "StatefulSet" (list "apps" "statefulsets") "DaemonSet" (list "apps" "daemonsets") "ReplicaSet" (list "apps" "replicasets") "ReplicationController" (list "" "replicationcontrollers") "Job" (list "batch" "jobs") "CronJob" (list "batch" "cronjobs") "PodTemplate" (list "" "podtemplates") -}}
{{- range .Values.webhook.kinds }}
{{- $r := get $map . -}}
{{- if not $r }}{{ fail (printf "webhook.kinds: %q is not Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, ReplicationController, Job, CronJob or PodTemplate" .) }}{{ end }}
- apiGroups: [{{ index $r 0 | quote }}]
  apiVersions: ["v1"]
  resources: [{{ index $r 1 | quote }}]
  {{- /* a pod's scheduling cannot change after creation: CREATE only */}}
  operations: {{ if eq . "Pod" }}["CREATE"]{{ else }}["CREATE", "UPDATE"]{{ end }}
  scope: Namespaced
{{- end }}
{{- end -}}

{{/* What every webhook of the chart shares. */}}
{{- define "wingen.webhookCommon" -}}
admissionReviewVersions: ["v1"]
sideEffects: None
timeoutSeconds: {{ .Values.webhook.timeoutSeconds }}
failurePolicy: {{ .Values.webhook.failurePolicy }}
matchPolicy: Equivalent
namespaceSelector:
  matchExpressions:
  - key: kubernetes.io/metadata.name
    operator: NotIn
    values: {{ concat (list "kube-system" .Release.Namespace) .Values.webhook.excludeNamespaces | uniq | toJson }}
  {{- with .Values.webhook.namespaceSelector.matchExpressions }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
  {{- with .Values.webhook.namespaceSelector.matchLabels }}
  matchLabels:
    {{- toYaml . | nindent 4 }}
  {{- end }}
objectSelector:
  matchExpressions:
  - key: wingen.dev/webhook
    operator: NotIn
    values: ["skip"]
  {{- with .Values.webhook.objectSelector.matchExpressions }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
  {{- with .Values.webhook.objectSelector.matchLabels }}
  matchLabels:
    {{- toYaml . | nindent 4 }}
  {{- end }}
rules:
{{- include "wingen.rules" . }}
{{- end -}}
