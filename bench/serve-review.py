#!/usr/bin/env python3
# The benchmark's AdmissionReview (bench/serve.sh, bench/admit.c): a typical
# 4 KB review of a Windows pod as the API server sends it for a
# Deployment's pod (defaults, managedFields, the projected service-account
# volume), written compact as the API server writes it.
#   bench/serve-review.py tests/data/serve/windows-pod.json OUT.json
import json, sys
pod = json.load(open(sys.argv[1]))
m = pod["metadata"]
m["generateName"] = "iis-7d9f8c6b5-"
m["annotations"].update({"kubectl.kubernetes.io/restartedAt": "2024-05-01T09:58:12Z",
                         "prometheus.io/scrape": "true", "prometheus.io/port": "9182",
                         "checksum/config": "9f2c1e7d4b8a6f3e0d5c2b1a9e8f7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e"})
m["labels"].update({"pod-template-hash": "7d9f8c6b5", "app.kubernetes.io/name": "iis",
                    "app.kubernetes.io/part-of": "shop"})
m["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "iis-7d9f8c6b5",
                         "uid": "0d9f4c1e-8a7b-4c2d-9e3f-1a2b3c4d5e6f", "controller": True,
                         "blockOwnerDeletion": True}]
m["managedFields"] = [{"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1",
                       "time": "2024-05-01T10:00:00Z", "fieldsType": "FieldsV1",
                       "fieldsV1": {"f:metadata": {"f:generateName": {}, "f:labels": {".": {}, "f:app": {}, "f:pod-template-hash": {}}},
                                    "f:spec": {"f:containers": {"k:{\"name\":\"iis\"}": {".": {}, "f:image": {}, "f:name": {},
                                               "f:ports": {".": {}, "k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}}}}}}}}]
c = pod["spec"]["containers"][0]
c["env"] = [{"name": "ASPNETCORE_URLS", "value": "http://+:80"},
            {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
            {"name": "POD_NAMESPACE", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}},
            {"name": "ConnectionStrings__Default", "valueFrom": {"secretKeyRef": {"name": "shop-db", "key": "connection"}}}]
c["resources"] = {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m", "memory": "512Mi"}}
c["volumeMounts"] = [{"name": "kube-api-access-abcde", "readOnly": True,
                      "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}]
c["livenessProbe"] = {"httpGet": {"path": "/healthz", "port": 80, "scheme": "HTTP"}, "initialDelaySeconds": 30,
                      "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3}
pod["spec"]["volumes"] = [{"name": "kube-api-access-abcde", "projected": {"defaultMode": 420, "sources": [
    {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
    {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
    {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}]}}]
r = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
     "request": {"uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
                 "kind": {"group": "", "version": "v1", "kind": "Pod"},
                 "resource": {"group": "", "version": "v1", "resource": "pods"},
                 "requestKind": {"group": "", "version": "v1", "kind": "Pod"},
                 "requestResource": {"group": "", "version": "v1", "resource": "pods"},
                 "name": "", "namespace": "shop", "operation": "CREATE",
                 "userInfo": {"username": "system:serviceaccount:kube-system:replicaset-controller",
                              "uid": "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
                              "groups": ["system:serviceaccounts", "system:serviceaccounts:kube-system",
                                         "system:authenticated"]},
                 "object": pod, "oldObject": None, "dryRun": False,
                 "options": {"kind": "CreateOptions", "apiVersion": "meta.k8s.io/v1"}}}
open(sys.argv[2], "w").write(json.dumps(r, separators=(",", ":")))
