{{/* The labels of every object: part of infrared, plus the values' extra labels. */}}
{{- define "infrared.labels" -}}
app.kubernetes.io/part-of: infrared
{{- with .Values.labels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* The backend's ServiceAccount as a binding subject. */}}
{{- define "infrared.backendSubject" -}}
- kind: ServiceAccount
  name: {{ .Values.serviceAccount.name }}
  namespace: infrared
{{- end }}
