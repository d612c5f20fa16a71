import type { NarrativeLanguage } from "./types";
import { EN_NUMBERS } from "../numbers";
import { isTopic, TOPIC_VOCABULARY } from "../../topic-vocabulary";

const reviewWord = (n: number) => (n === 1 ? "review" : "reviews");
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const LANGUAGES: Record<string, string> = { en: "English", es: "Spanish", de: "German" };
const TIMEFRAMES = { high: "next 2 weeks", medium: "next 30 days", low: "next quarter" } as const;

const METRICS: Record<string, string> = {
  reviews: "the number of reviews",
  average_rating: "the average rating",
  positive_pct: "the positive share",
  negative_pct: "the negative share",
  critical_reviews: "reviews reporting a health-and-safety problem",
};

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** English: the language the report was first written in (its top-level fields). */
export const en: NarrativeLanguage = {
  code: "en",
  numbers: EN_NUMBERS,
  category: (c) => c.replace(/_/g, " "),
  team: (t) => t.replace(/_/g, " "),
  topic: (id) => (isTopic(id) ? TOPIC_VOCABULARY[id].label.en : id.replace(/_/g, " ")),
  level: (l) => l,
  timeframe: (l) => TIMEFRAMES[l],
  language: (code) => LANGUAGES[code] ?? code,
  unknown: "n/a",

  headlineRisk: (reviews, category, share) =>
    `${reviews.text} ${reviewWord(reviews.n)}: ${category} is the main risk (${share} negative)`,
  headlineCalm: (reviews, share) =>
    `${reviews.text} ${reviewWord(reviews.n)}: ${share} positive, no category at high risk`,
  analysed: ({ place, from, to, reviews, reviewsIn, rating }) => {
    const others = place?.others ? ` and ${place.others.text} other ${place.others.n === 1 ? "place" : "places"}` : "";
    const where = place ? `For ${place.name}${others}, from` : "From";
    const avg = rating === null ? "no star ratings" : `an average rating of ${rating} of 5`;
    return `${where} ${from} to ${to}, ${reviews.text} ${reviews.n === 1 ? "review was" : "reviews were"} analysed (${reviewsIn} read, duplicates and empty ones removed), with ${avg}.`;
  },
  shares: ({ positive, texts, negative, mixed }) =>
    `${positive} of the ${texts} texts read positive, ${negative} negative${mixed ? ` and ${mixed} mixed` : ""}.`,
  biggestRisk: ({ category, share, mentions, risk, team }) =>
    `The biggest risk is ${category}: ${share} of its ${mentions} mentions are negative (risk score ${risk} of 100), owned by ${team}.`,
  strongest: ({ category, share, mentions, issues }) =>
    issues
      ? `The strongest asset is ${category}, praised in ${share} of its ${mentions} mentions, though it also has ${issues.text} high-severity ${issues.n === 1 ? "issue" : "issues"}.`
      : `The strongest asset is ${category}, praised in ${share} of its ${mentions} mentions.`,
  compared: (metric, now, went) => {
    const name = METRICS[metric] ?? metric;
    return went ? `${name} went ${went.up ? "up" : "down"} from ${went.before} to ${now}` : `${name} stayed at ${now}`;
  },
  sinceRun: (run, parts) => `Since the previous run of these places (${run}): ${parts.join(", ")}.`,
  critical: (reviews, mentions) =>
    `${reviews.text} ${reviews.n === 1 ? "review reports" : "reviews report"} a health-and-safety problem (${mentions.text} critical ${mentions.n === 1 ? "mention" : "mentions"} across categories); they need attention now.`,
  noCritical: "No review reports a health-and-safety problem.",
  sentiment: ({ positive, neutral, negative, mixed, compound }) =>
    `${positive.text} ${positive.n === 1 ? "text is" : "texts are"} positive, ${neutral.text} neutral, ${negative.text} negative and ${mixed.text} mixed (praise and complaints of comparable weight); the average sentiment score is ${compound} on a scale from -1 to 1.`,
  reviewLanguage: (reviews, language) =>
    `${reviews.text} ${reviews.n === 1 ? "review is" : "reviews are"} in ${language}.`,
  stars: (high, low) =>
    `${high.text} ${high.n === 1 ? "review gives" : "reviews give"} 4 or 5 stars and ${low.text} ${low.n === 1 ? "gives" : "give"} 1 or 2 stars.`,
  categoryLine: ({ category, share, mentions, positive, negative }) =>
    `${category}: mentioned in ${share} of texts (${mentions} mentions), ${positive} of them positive and ${negative} negative.`,
  noCategories: "No text mentions a category of the taxonomy.",
  ratingTrend: (p) =>
    `The average rating went from ${p.fromRating} in ${p.fromMonth} to ${p.toRating} in ${p.toMonth}; the sentiment score from ${p.fromScore} to ${p.toScore}.`,
  worstMonth: (month, negative, reviews) =>
    `${month} had the most negative texts (${negative} of ${reviews.text} ${reviewWord(reviews.n)}).`,
  oneMonth: (month, rating) => `All reviews fall in ${month}, with an average rating of ${rating}.`,
  noDates: "No review has a publication date.",
  peak: (weekday, time, reviews) =>
    `Most reviews are written on ${WEEKDAYS[weekday]} at ${time} UTC (${reviews.text} ${reviewWord(reviews.n)}).`,
  planLine: ({ team, timeframe, items }) =>
    `${cap(team)}, ${timeframe}: ${items.map((i) => `${i.subject} (action ${i.priority})`).join(", ")}.`,
  topicAction: (topic, reviews) =>
    `${isTopic(topic) ? TOPIC_VOCABULARY[topic].action.en : topic}: ${reviews.text} ${reviews.n === 1 ? "review mentions" : "reviews mention"} it`,
  keepStandards: "Keep the current standards: no category has negative mentions.",
  readNegative: (category, negative) =>
    `Read the ${negative.text} negative ${negative.n === 1 ? "mention" : "mentions"} of ${category} with the team and fix what they name`,
  fixPhrases: (category, phrases) =>
    `Fix what the complaints about ${category} name most: ${phrases.map((p) => `‘${p.phrase}’ (${p.reviews.text} ${p.reviews.n === 1 ? "review" : "reviews"})`).join(", ")}`,
  marketing: (category, share, quote) =>
    `Lead with ${category} (${share} positive)${quote ? `, in guests' own words: "${quote}"` : ""}.`,
  collectMore: "Collect more reviews before choosing a marketing angle.",
  priority: ({ category, level, score, negative }) =>
    `${cap(category)}: ${level} risk (score ${score}; ${negative.text} negative ${negative.n === 1 ? "mention" : "mentions"}).`,
  noPriorities: "No category is at medium or high risk; watch the tracking KPIs monthly.",
  issueSummary: ({ issues, severity, category, share, mentions, praised }) =>
    `${issues.text} ${severity} ${issues.n === 1 ? "issue" : "issues"} about ${category}; ${share} of ${mentions} mentions are negative${praised ? `, while ${praised} praise it` : ""}.`,
};
