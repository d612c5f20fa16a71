import { plainCiteIn, untagNarrative, type Cite, type EvidenceLink } from "./citations";
import type { NarrativeWriter, ReportFacts } from "./facts";
import { citer, FIGURES, type Figure } from "./figures";
import { NARRATIVE_LANGUAGES, type NarrativeLanguage, type ReportLanguage } from "./lang";
import type { TNarrative } from "./narrative";

/** The place named in the opening sentence: the biggest named place and how many others the run read (null: none named). */
function place(places: ReportFacts["places"], figure: (f: Figure) => string) {
  const named = places.find((p) => p.name);
  if (!named?.name) return null;
  const others = places.length - 1;
  return {
    name: named.name,
    others: others > 0 ? { text: figure(FIGURES.otherPlaces(named, others)), n: others } : null,
  };
}

/** "Since the previous run of these places (2026-11-20): the average rating went down from 4.1 to 3.9, …" */
function compared(c: ReportFacts["comparison"], figure: (f: Figure) => string, L: NarrativeLanguage): string {
  if (!c || c.metrics.length === 0) return "";
  const parts = c.metrics.map((m) => {
    const now = figure(FIGURES.now(m.metric, m.now));
    return L.compared(
      m.metric,
      now,
      m.direction === "same"
        ? null
        : { up: m.direction === "up", before: figure(FIGURES.before(m.metric, m.before, c.execution_id)) },
    );
  });
  const before = c.metrics.find((m) => m.metric === "reviews")?.before ?? 0;
  return L.sinceRun(figure(FIGURES.previousRun(c.execution_id, c.finished_at.slice(0, 10), before)), parts);
}

/**
 * Writes the narrative from the facts alone, in language `L`: same facts, same text; every number is
 * one of the facts, cited with `cite` (its ref and the reviews it counts), and every language cites
 * the same figures. What to say is decided here; how to say it is the language's (lang/). Scale
 * bounds ("of 5", "from -1 to 1", "of 100"), star buckets ("4 or 5 stars"), list positions and
 * recommended timeframes are not figures.
 */
function writeTagged(f: ReportFacts, cite: Cite, L: NarrativeLanguage): TNarrative {
  const figure = citer(cite);
  const counted = (fig: Figure) => ({ text: figure(fig), n: fig[1].value });
  const a = f.aggregates;
  const t = a.totals;
  const risk = f.scorecard[0];
  // The strongest asset is never the category just named as the biggest risk.
  const strength = (
    f.strengths as { category: string; percentage: number; mentions: number; serious_issues?: number }[]
  ).find((s) => s.category !== risk?.category);
  const reviews = counted(FIGURES.reviews(t));
  const riskShare = risk ? figure(FIGURES.polarShare(risk.category, "negative", risk.negative_pct)) : "";
  const headline =
    risk && risk.risk_level !== "low"
      ? L.headlineRisk(reviews, L.category(risk.category), riskShare)
      : L.headlineCalm(reviews, figure(FIGURES.share("positive", t)));
  const month = (iso: string | null) => {
    const m = iso ? a.timeline.find((x) => x.month === iso.slice(0, 7)) : undefined;
    return m ? figure(FIGURES.month(m)) : L.unknown;
  };
  const narrative = [
    L.analysed({
      place: place(f.places, figure),
      from: month(a.period.from),
      to: month(a.period.to),
      reviews,
      reviewsIn: figure(FIGURES.reviewsIn(t)),
      rating: t.average_rating === null ? null : figure(FIGURES.averageRating(t.average_rating)),
    }),
    L.shares({
      positive: figure(FIGURES.share("positive", t)),
      texts: figure(FIGURES.withText(t)),
      negative: figure(FIGURES.share("negative", t)),
      mixed: t.mixed_pct ? figure(FIGURES.share("mixed", t)) : null,
    }),
    risk
      ? L.biggestRisk({
          category: L.category(risk.category),
          share: riskShare,
          mentions: figure(FIGURES.mentions(risk.category, risk.mentions)),
          risk: figure(FIGURES.risk(risk.category, risk.risk_score)),
          team: L.team(risk.team),
        })
      : "",
    strength
      ? L.strongest({
          category: L.category(strength.category),
          share: figure(FIGURES.polarShare(strength.category, "positive", strength.percentage)),
          mentions: figure(FIGURES.mentions(strength.category, strength.mentions)),
          // Both sides: a praised category with serious issues says so where it is called a strength.
          issues: strength.serious_issues
            ? counted(FIGURES.seriousIssues(strength.category, strength.serious_issues))
            : null,
        })
      : "",
    compared(f.comparison, figure, L),
    // Reviews, not category mentions: a review reporting a hazard about food and cleanliness is one review.
    t.critical_reviews
      ? L.critical(counted(FIGURES.criticalReviews(t)), counted(FIGURES.criticalIssues(t)))
      : L.noCritical,
  ]
    .filter(Boolean)
    .join(" ");

  const texts = (l: "positive" | "neutral" | "negative" | "mixed") => counted(FIGURES.texts(l, t));
  const sentiment = [
    L.sentiment({
      positive: texts("positive"),
      neutral: texts("neutral"),
      negative: texts("negative"),
      mixed: texts("mixed"),
      compound: figure(FIGURES.averageCompound(t)),
    }),
    ...a.languages
      .filter((l) => l.language !== "unknown")
      .map((l) => L.reviewLanguage(counted(FIGURES.language(l)), L.language(l.language))),
  ];
  sentiment.push(
    L.stars(
      counted(FIGURES.stars(4, 5, f.derived.high_star_reviews)),
      counted(FIGURES.stars(1, 2, f.derived.low_star_reviews)),
    ),
  );

  const categories = a.categories
    .filter((c) => c.mentions > 0)
    .sort((x, y) => y.mentions - x.mentions)
    .map((c) =>
      L.categoryLine({
        category: L.category(c.category),
        share: figure(FIGURES.mentionShare(c)),
        mentions: figure(FIGURES.mentions(c.category, c.mentions)),
        positive: figure(FIGURES.polarShare(c.category, "positive", c.positive_pct)),
        negative: figure(FIGURES.polarShare(c.category, "negative", c.negative_pct)),
      }),
    );
  if (!categories.length) categories.push(L.noCategories);

  const timeline: string[] = [];
  const first = a.timeline[0];
  const last = a.timeline[a.timeline.length - 1];
  const rating = (m: NonNullable<typeof first>) =>
    m.average_rating === null ? L.unknown : figure(FIGURES.monthRating(m.month, m.average_rating));
  if (first && last && first !== last) {
    const compound = (m: NonNullable<typeof first>) => figure(FIGURES.monthCompound(m.month, m.average_compound));
    timeline.push(
      L.ratingTrend({
        fromRating: rating(first),
        fromMonth: figure(FIGURES.month(first)),
        toRating: rating(last),
        toMonth: figure(FIGURES.month(last)),
        fromScore: compound(first),
        toScore: compound(last),
      }),
    );
    const worst = f.derived.worst_month;
    if (worst) {
      const m = a.timeline.find((x) => x.month === worst.month) ?? { month: worst.month, reviews: worst.reviews };
      timeline.push(
        L.worstMonth(
          figure(FIGURES.month(m)),
          figure(FIGURES.monthNegative(worst.month, worst.negative)),
          counted(FIGURES.monthReviews(worst.month, worst.reviews)),
        ),
      );
    }
  } else if (first) {
    timeline.push(L.oneMonth(figure(FIGURES.month(first)), rating(first)));
  } else {
    timeline.push(L.noDates);
  }
  const p = f.derived.peak;
  if (p) timeline.push(L.peak(p.weekday, figure(FIGURES.peakTime(p)), counted(FIGURES.peakReviews(p))));

  // The plan says who does which action of the matrix and when, by its number and subject; it does not
  // repeat the actions (they are written once, in the action matrix). An action's impact is its
  // category's risk level, and its timeframe that level's (sections.ts).
  const byTeam = new Map<string, typeof f.actions>();
  for (const x of f.actions) {
    const key = `${x.team}|${x.impact}`;
    byTeam.set(key, [...(byTeam.get(key) ?? []), x]);
  }
  const actionPlan = f.actions.length
    ? [...byTeam.values()].map((rows) =>
        L.planLine({
          team: L.team(rows[0]!.team),
          timeframe: L.timeframe(rows[0]!.impact),
          items: rows.map((x) => ({
            priority: x.priority,
            subject: x.topic ? L.topic(x.topic) : L.category(x.category),
          })),
        }),
      )
    : [L.keepStandards];
  const marketing = f.strengths.length
    ? f.strengths.map((s) => {
        const item = s as { category: string; percentage: number; top_quotes: string[] };
        return L.marketing(
          L.category(item.category),
          figure(FIGURES.polarShare(item.category, "positive", item.percentage)),
          item.top_quotes[0],
        );
      })
    : [L.collectMore];
  const priorities = f.scorecard
    .filter((r) => r.risk_level !== "low" || r.critical_issues > 0)
    .map((r) =>
      L.priority({
        category: L.category(r.category),
        level: L.level(r.risk_level),
        score: figure(FIGURES.risk(r.category, r.risk_score)),
        negative: counted(FIGURES.negativeMentions(r.category, r.negative)),
      }),
    );
  if (!priorities.length) priorities.push(L.noPriorities);

  return {
    headline,
    narrative,
    sentiment_insights: sentiment.slice(0, 8),
    category_insights: categories.slice(0, 10),
    timeline_insights: timeline,
    action_plan: actionPlan.slice(0, 10),
    marketing_angles: marketing.slice(0, 8),
    priority_recommendations: priorities.slice(0, 8),
  };
}

/**
 * The narrative in one language with its figures linked: the texts, and where each figure is in them.
 * `cite` receives the language's number style (EvidenceBook.citeIn), so the figures are written as the language writes them.
 */
export function writeLinked(
  f: ReportFacts,
  citeIn: (style: NarrativeLanguage["numbers"]) => Cite,
  language: ReportLanguage = "en",
): { narrative: TNarrative; links: EvidenceLink[] } {
  const L = NARRATIVE_LANGUAGES[language];
  return untagNarrative(writeTagged(f, citeIn(L.numbers), L));
}

/** The narrative alone, in one language (English by default). */
export function writeDeterministic(f: ReportFacts, language: ReportLanguage = "en"): TNarrative {
  const L = NARRATIVE_LANGUAGES[language];
  return writeTagged(f, plainCiteIn(L.numbers), L);
}

/** The default writer (English; synthesize adds the other languages). */
export const deterministicWriter: NarrativeWriter = {
  name: "deterministic",
  write: (facts) => Promise.resolve(writeDeterministic(facts)),
};
