"""Tallies the count rows of `perfkit abba A B --counts --json` files (FOLDER/change-*.json): per series, how often
flagged and the range of its change. Usage: counts-tally.py FOLDER"""
import json, glob, collections, sys
flag=collections.Counter(); seen=collections.Counter(); changes=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1] + '/change-*.json')):
    for r in json.load(open(f))["comparison"]["rows"]:
        if r["metric"]["name"]!="instructions": continue
        k=(r["test"].split('.')[-1].split('/')[0], r["measurement"], r["arm"], r["phase"])
        seen[k]+=1
        if r["verdict"] in ("regressed","improved"): flag[k]+=1
        b,c=r.get("baseline"),r.get("current")
        if b and c: changes[k].append(c["median"]/b["median"]-1)
for k in sorted(seen):
    ch=changes[k]
    print(f"{k[0][:24]:24} {k[1][:16]:16} {k[2]:9} {k[3]:8} flagged {flag[k]:2} of {seen[k]:2}  change {min(ch)*100:+.2f}% … {max(ch)*100:+.2f}%")
