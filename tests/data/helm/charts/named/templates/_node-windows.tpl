{{- define "node-windows" }}
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: {{ .NodeName }}-windows
spec:
  selector:
    matchLabels: {app: {{ .NodeName }}-windows}
  template:
    metadata:
      labels: {app: {{ .NodeName }}-windows}
    spec:
      nodeSelector:
        kubernetes.io/os: windows
        {{- with .Values.node.nodeSelector }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      containers:
        - name: node
          image: mcr.microsoft.com/windows/nanoserver:ltsc2022
{{- end }}
