#!/usr/bin/env python3
"""Strict, standalone JSON schemas for kubeconform, generated offline (no schema downloads here):

  kubernetes_schemas.py <out dir> <kubernetes swagger.json> <CRD yaml>...

Every kind of the Kubernetes OpenAPI document, and every version of every CRD given, becomes
<kind>[-<group's first label>]-<version>.json, kubeconform's default file naming. $refs are inlined, an object that
lists its properties refuses any other (unless it keeps unknown fields on purpose), and int-or-string is either.
Why not openapi2jsonschema: its pinned PyYAML 5 no longer builds on current Pythons.
"""
import copy
import json
import os
import sys

import yaml


def strict(schema):
    """Refuses properties a schema does not list, at every level (kubeconform -strict relies on it)."""
    if isinstance(schema, dict):
        if schema.get("format") == "int-or-string" or schema.get("x-kubernetes-int-or-string"):
            description = schema.get("description")
            schema.clear()
            schema["oneOf"] = [{"type": "string"}, {"type": "integer"}]
            if description:
                schema["description"] = description
            return schema
        if "properties" in schema and "additionalProperties" not in schema \
                and not schema.get("x-kubernetes-preserve-unknown-fields"):
            schema["additionalProperties"] = False
        for value in schema.values():
            strict(value)
    elif isinstance(schema, list):
        for value in schema:
            strict(value)
    return schema


def inline(schema, definitions, stack=()):
    """The schema with every #/definitions/ reference replaced by its definition; a reference to a definition
    being inlined already (a recursive type) accepts anything."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str):  # JSONSchemaProps has a property named "$ref" too
            name = ref.split("/")[-1]
            if name in stack:
                return {}
            return inline(copy.deepcopy(definitions[name]), definitions, stack + (name,))
        return {key: inline(value, definitions, stack) for key, value in schema.items()}
    if isinstance(schema, list):
        return [inline(value, definitions, stack) for value in schema]
    return schema


def with_object_fields(schema, definitions):
    """A CRD's schema as the API server applies it: apiVersion, kind and metadata (an ObjectMeta) belong to every
    object, whether the CRD lists them or not."""
    properties = schema.setdefault("properties", {})
    properties["apiVersion"] = {"type": "string"}
    properties["kind"] = {"type": "string"}
    properties["metadata"] = inline({"$ref": "#/definitions/" + OBJECT_META}, definitions)
    return schema


OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"


def file_name(kind, group, version):
    suffix = "-" + group.split(".")[0] if group else ""
    return f"{kind.lower()}{suffix}-{version}.json"


def write(out, name, schema):
    schema["$schema"] = "http://json-schema.org/schema#"
    with open(os.path.join(out, name), "w") as file:
        json.dump(schema, file)


def main(out, swagger, crds):
    os.makedirs(out, exist_ok=True)
    with open(swagger) as file:
        definitions = json.load(file)["definitions"]
    written = 0
    for name, definition in definitions.items():
        for gvk in definition.get("x-kubernetes-group-version-kind", []):
            schema = strict(inline(copy.deepcopy(definition), definitions, (name,)))
            write(out, file_name(gvk["kind"], gvk.get("group", ""), gvk["version"]), schema)
            written += 1
    for path in crds:
        with open(path) as file:
            crd = yaml.safe_load(file)
        kind = crd["spec"]["names"]["kind"]
        for version in crd["spec"]["versions"]:
            schema = strict(with_object_fields(copy.deepcopy(version["schema"]["openAPIV3Schema"]), definitions))
            write(out, file_name(kind, crd["spec"]["group"], version["name"]), schema)
            written += 1
    print(f"{written} schemas in {out}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
