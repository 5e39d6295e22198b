{{/* Names and labels. */}}
{{- define "volumizer.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}{{ .Release.Name | trunc 40 | trimSuffix "-" }}{{- else -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{- define "volumizer.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "volumizer.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}{{ .Values.serviceAccount.name }}{{- else -}}{{ default "default" .Values.serviceAccount.name }}{{- end -}}
{{- end -}}

{{/* The commands' session cluster: its FlinkDeployment's name is the release's and this; the operator makes its REST
     Service, <name>-rest, on Flink's REST port. */}}
{{- define "volumizer.commandsCluster" -}}commands{{- end -}}
{{- define "volumizer.commandsRestUrl" -}}
{{- printf "http://%s-%s-rest:8081" (include "volumizer.fullname" .) (include "volumizer.commandsCluster" .) -}}
{{- end -}}

{{/* Where the operator fetches the jobs jar for a command's FlinkSessionJob: the API's management Service, by its
     full name (the operator runs in a namespace of its own, often). */}}
{{- define "volumizer.jobsJarUri" -}}
{{- printf "http://%s-api-management.%s.svc:%v/artifacts/volumizer-jobs.jar" (include "volumizer.fullname" .) .Release.Namespace .Values.api.metricsPort -}}
{{- end -}}

{{/* The API's own service account: bound to a Role for FlinkSessionJobs alone (the Flink one may create and delete pods). */}}
{{- define "volumizer.apiServiceAccountName" -}}
{{- if .Values.api.serviceAccount.create -}}{{ .Values.api.serviceAccount.name }}{{- else -}}{{ default "default" .Values.api.serviceAccount.name }}{{- end -}}
{{- end -}}

{{/* The schema registry the jobs and the API use: the given one, else the chart's own. */}}
{{- define "volumizer.registryUrl" -}}
{{- if .Values.services.registry.url -}}{{ .Values.services.registry.url }}{{- else -}}{{ printf "http://%s-registry:8080/apis/ccompat/v7" (include "volumizer.fullname" .) }}{{- end -}}
{{- end -}}

{{/*
  Each step's main class, as options/src/main/java/io/volumizer/options/steps/Step.java names it
  (HelmChartTest checks that they agree).
*/}}
{{- define "volumizer.entryClass" -}}
{{- $classes := dict "generate" "io.volumizer.jobs.generate.GenerateJob" "import" "io.volumizer.jobs.imports.ImportJob" "index" "io.volumizer.jobs.index.IndexJob" "import-and-index" "io.volumizer.jobs.pipeline.ImportAndIndexJob" "import-csv" "io.volumizer.jobs.csv.CsvImportJob" -}}
{{- required (printf "unknown step %q: steps are generate, import, index, import-and-index, import-csv" .) (get $classes .) -}}
{{- end -}}

{{/*
  The repository's services and topics, as options of the jobs and the API. --topics-of names the repository only:
  its topics and consumer groups are derived by the jobs' own rule (options/.../conventions: TopicNames,
  ConsumerGroups; bin/volumizer conventions prints them), never spelled here. Credentials are not options: the
  MongoDB URI and the Kafka SASL login come from Secrets, as environment variables (volumizer.secretEnv).
*/}}
{{- define "volumizer.serviceArgs" -}}
- --bootstrap-servers
- {{ .Values.services.kafka.bootstrapServers | quote }}
{{- with .Values.services.kafka.securityProtocol }}
- --kafka-property
- {{ printf "security.protocol=%s" . | quote }}
{{- end }}
{{- with .Values.services.kafka.saslMechanism }}
- --kafka-property
- {{ printf "sasl.mechanism=%s" . | quote }}
{{- end }}
- --registry-url
- {{ include "volumizer.registryUrl" . | quote }}
- --mongodb-database
- {{ .Values.services.mongodb.database | quote }}
{{- with .Values.services.search }}
{{- if and .aws .aws.region (or .username .credentialsSecret) }}
{{- fail "services.search: aws.region signs every request with the pods' AWS role; leave username and credentialsSecret empty" }}
{{- end }}
{{- if and .username (not .credentialsSecret) }}
{{- fail "services.search.username needs credentialsSecret, whose key 'password' is the user's password" }}
{{- end }}
- --search-engine
- {{ .engine | quote }}
- --search-url
- {{ .url | quote }}
- --index-prefix
- {{ .indexPrefix | quote }}
{{- with .username }}
- --search-username
- {{ . | quote }}
{{- end }}
{{- if .caSecret }}
- --search-ca-file
- {{ printf "%s/%s" (include "volumizer.searchCaPath" $) (include "volumizer.searchCaFile" $) | quote }}
{{- end }}
{{- with .aws }}{{- if .region }}
- --search-aws-region
- {{ .region | quote }}
- --search-aws-service
- {{ .service | default "es" | quote }}
{{- end }}{{- end }}
{{- end }}
- --topics-of
- {{ .Values.repository | quote }}
{{- end -}}

{{/* The environment of every Volumizer container: secrets by reference, never by value. */}}
{{- define "volumizer.secretEnv" -}}
- name: VOLUMIZER_MONGODB_URI
  valueFrom:
    secretKeyRef:
      name: {{ .Values.services.mongodb.uriSecret | quote }}
      key: uri
{{- if .Values.services.kafka.saslSecret }}
- name: VOLUMIZER_KAFKA_SASL_JAAS_CONFIG
  valueFrom:
    secretKeyRef:
      name: {{ .Values.services.kafka.saslSecret | quote }}
      key: sasl.jaas.config
{{- end }}
{{- with .Values.services.search.credentialsSecret }}
{{- /* SearchOptions.PASSWORD_ENV and API_KEY_ENV; either key may be absent from the Secret */}}
- name: VOLUMIZER_SEARCH_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ . | quote }}
      key: password
      optional: true
- name: VOLUMIZER_SEARCH_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ . | quote }}
      key: apiKey
      optional: true
{{- end }}
- name: AWS_REGION
  value: {{ .Values.services.s3.region | quote }}
{{- end -}}

{{/* Where the search engine's CA certificates (services.search.caSecret) are mounted in every Volumizer container,
and their file: the Secret's key of that name. */}}
{{- define "volumizer.searchCaPath" -}}
/etc/volumizer/search-ca
{{- end -}}

{{- define "volumizer.searchCaFile" -}}
ca.pem
{{- end -}}

{{/* The search engine's CA certificates as a volume of a pod, and its mount in a container: none without caSecret. */}}
{{- define "volumizer.searchCaVolume" -}}
{{- with .Values.services.search.caSecret }}
- name: search-ca
  secret:
    secretName: {{ . | quote }}
    items:
      - key: {{ include "volumizer.searchCaFile" $ }}
        path: {{ include "volumizer.searchCaFile" $ }}
{{- end }}
{{- end -}}

{{- define "volumizer.searchCaMount" -}}
{{- if .Values.services.search.caSecret }}
- name: search-ca
  mountPath: {{ include "volumizer.searchCaPath" . }}
  readOnly: true
{{- end }}
{{- end -}}

{{/* The Secret holding the bearer token the API's /metrics asks for, under key 'token': the given one, else the chart's. */}}
{{- define "volumizer.metricsTokenSecret" -}}
{{- default (printf "%s-api-metrics" (include "volumizer.fullname" .)) .Values.api.metricsTokenSecret -}}
{{- end -}}

{{/* The Secret holding the key every API replica seals its cursors with, under key 'key': the given one, else the chart's. */}}
{{- define "volumizer.cursorKeySecret" -}}
{{- default (printf "%s-api-cursors" (include "volumizer.fullname" .)) .Values.api.cursorKeySecret -}}
{{- end -}}

{{/* A Secret of the API's with one random value under 'key' ({root, name, key}), made once: an upgrade keeps the one in
the cluster (lookup finds nothing when helm renders without a cluster, as helm template does, and makes one then). */}}
{{- define "volumizer.generatedSecret" -}}
{{- $existing := (lookup "v1" "Secret" .root.Release.Namespace .name).data | default dict }}
apiVersion: v1
kind: Secret
metadata:
  name: {{ .name }}
  labels:
    {{- include "volumizer.labels" .root | nindent 4 }}
    app.kubernetes.io/component: api
type: Opaque
data:
  {{ .key }}: {{ get $existing .key | default (randAlphaNum 48 | b64enc) | quote }}
{{- end -}}

{{/* What a read-only root filesystem leaves a container to write to: an emptyDir per folder, as a pod's volumes and
their mounts. The folders of a component: /tmp for every JVM (temporary files, native libraries unpacked by the
Kafka client's compression codecs); see the templates for the others. */}}
{{- define "volumizer.writableVolumes" -}}
{{- range $name, $path := . }}
- name: {{ $name }}
  emptyDir: {}
{{- end }}
{{- end -}}

{{- define "volumizer.writableMounts" -}}
{{- range $name, $path := . }}
- name: {{ $name }}
  mountPath: {{ $path }}
{{- end }}
{{- end -}}
