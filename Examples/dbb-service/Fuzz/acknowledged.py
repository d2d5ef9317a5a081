#!/usr/bin/env python3
"""The database holds only what acknowledged requests wrote.

Reads the requests and answers of a schemathesis run (its HAR report, in the order they were
exchanged), replays every acknowledged write into the records the service should now hold —
a 201 to a POST adds the record it answers, a 200 to a PUT replaces it with the one it answers,
a 204 to a DELETE removes it and drops the references other records had to it (as the service
does, without changing their modifiedTime) — and compares that, record by record and field by
field, with what the running service lists. A refused write (4xx) must have left no trace; a
write answered 5xx makes the check fail (its outcome cannot be told, and it is a bug anyway).

Usage: acknowledged.py HAR BASE_URL. Exit status 0 when they agree, 1 with the differences.
Standard library only.
"""

import json
import re
import sys
import urllib.request
from urllib.parse import urlsplit

RESOURCES = ("companies", "people", "projects", "meetings")

# Who refers to whom: a deleted record of the key's kind disappears from these fields.
REFERENCES = {
    "companies": [("people", "employer")],
    "people": [("people", "spouse"), ("projects", "projectLead"), ("meetings", "participants")],
    "projects": [("projects", "subProject"), ("meetings", "project")],
    "meetings": [],
}

COLLECTION = re.compile(r"^/(%s)/?$" % "|".join(RESOURCES))
MEMBER = re.compile(r"^/(%s)/([^/]+)$" % "|".join(RESOURCES))


def replay(entries):
    """The records the acknowledged writes leave, by resource and id; and the problems seen."""
    expected = {name: {} for name in RESOURCES}
    problems = []
    writes = {"POST": 0, "PUT": 0, "DELETE": 0}
    for entry in entries:
        request, response = entry["request"], entry["response"]
        method, path, status = request["method"].upper(), urlsplit(request["url"]).path, response["status"]
        if method not in writes:
            continue
        member, collection = MEMBER.match(path), COLLECTION.match(path)
        if status >= 500 and (member or collection):
            problems.append(f"{method} {path} was answered {status}: its outcome cannot be told")
            continue
        if not 200 <= status < 300:
            continue
        writes[method] += 1
        if method == "POST" and collection and status == 201:
            record = json.loads(response["content"]["text"])
            resource = collection.group(1)
            if record["id"] in expected[resource]:
                problems.append(f"POST {path} answered id {record['id']}, which an earlier create had")
            expected[resource][record["id"]] = record
        elif method == "PUT" and member and status == 200:
            record = json.loads(response["content"]["text"])
            expected[member.group(1)][record["id"]] = record
        elif method == "DELETE" and member and status == 204:
            resource, rid = member.group(1), int(member.group(2))
            expected[resource].pop(rid, None)
            for other, field in REFERENCES[resource]:
                for record in expected[other].values():
                    value = record.get(field)
                    if isinstance(value, list):
                        record[field] = [item for item in value if item != rid]
                    elif value == rid:
                        del record[field]
        else:
            problems.append(f"{method} {path}: an acknowledgement this check does not know ({status})")
    return expected, problems, writes


def fetch_all(base, resource):
    """Every record the service lists, by id, page by page."""
    records, offset = {}, 0
    while offset is not None:
        with urllib.request.urlopen(f"{base}/{resource}?limit=500&offset={offset}&sort=id") as answer:
            page = json.load(answer)
        for record in page["items"]:
            records[record["id"]] = record
        offset = page["nextOffset"]
    return records


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[-2])
    har, base = sys.argv[1], sys.argv[2].rstrip("/")
    with open(har, encoding="utf-8") as file:
        entries = json.load(file)["log"]["entries"]
    expected, problems, writes = replay(entries)
    for resource in RESOURCES:
        stored = fetch_all(base, resource)
        for rid in sorted(expected[resource].keys() - stored.keys()):
            problems.append(f"{resource} {rid}: acknowledged, but not stored")
        for rid in sorted(stored.keys() - expected[resource].keys()):
            problems.append(f"{resource} {rid}: stored, but no acknowledged write left it: {stored[rid]}")
        for rid in sorted(expected[resource].keys() & stored.keys()):
            if expected[resource][rid] != stored[rid]:
                problems.append(
                    f"{resource} {rid}: stored {stored[rid]}, acknowledged {expected[resource][rid]}")
    counts = ", ".join(f"{len(expected[name])} {name}" for name in RESOURCES)
    print(f"acknowledged: {len(entries)} requests, {writes['POST']} creates, {writes['PUT']} replaces, "
          f"{writes['DELETE']} deletes acknowledged; expected and stored: {counts}")
    if problems:
        print(f"the database does not hold what was acknowledged ({len(problems)} differences):")
        for problem in problems[:50]:
            print("  " + problem)
        sys.exit(1)
    print("the database holds exactly what was acknowledged")


if __name__ == "__main__":
    main()
