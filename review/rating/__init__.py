"""Human rating of system responses, as CoSQL's Table 6 reports it: logic correctness and grammar, given by several
raters to responses from several sources whose names they never see (docs/human_rating.md)."""
