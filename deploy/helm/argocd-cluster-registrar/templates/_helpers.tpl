{{/*
Object names are those of upstream's chart (<release>-argocd-cluster-registrar, its -sa, -role,
-rolebinding, -write, -metrics), and so are the selector labels: `helm upgrade` of an upstream release
to this chart replaces its objects in place (a Deployment's selector cannot change).
*/}}
{{- define "acr.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{- define "acr.serviceAccountName" -}}
{{- printf "%s-sa" (include "acr.fullname" .) -}}
{{- end }}

{{- define "acr.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Every object's labels: the chart's, then commonLabels. */}}
{{- define "acr.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name (.Chart.Version | replace "+" "_") }}
{{ include "acr.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
The Lease's name, as the command derives it when --leader-election-id is not given: acr- and the
first 16 hex digits of sha256("<labelPrefix>|<managedBy>"). Two releases that own the same Secrets
contend for the same Lease, whatever their release names.
*/}}
{{- define "acr.leaderElectionID" -}}
{{- printf "acr-%s" (printf "%s|%s" .Values.labelPrefix .Values.managedBy | sha256sum | trunc 16) -}}
{{- end }}

{{/* The port of a bind address ":8081" or "host:8081". */}}
{{- define "acr.port" -}}
{{- regexReplaceAll "^.*:" . "" | int -}}
{{- end }}
