"""The report layer: assembling a report of stored runs (:mod:`pipelines.report.assemble`),
its findings, headline, verdicts, claims, win table, pages and replay pages. Below the
experiments, which word their results with its findings and verdicts; above single games."""
