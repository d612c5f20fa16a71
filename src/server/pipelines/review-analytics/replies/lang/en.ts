import type { ReplyLanguage } from "./types";
import { joinWith } from "./types";

const CATEGORIES = {
  food: "the food",
  service: "the service",
  price: "the prices",
  cleanliness: "the cleanliness",
  waiting_time: "the waiting time",
  ambience: "the atmosphere",
} as const;

/** English replies. */
export const en: ReplyLanguage = {
  greeting: (name) => (name ? `Dear ${name},` : "Hello,"),
  thanks: (critical) =>
    critical ? "Thank you for telling us about this." : "Thank you for taking the time to write about your visit.",
  critical:
    "What you describe concerns us deeply: the health and safety of our guests come first. We have passed your report " +
    "to the manager, who is looking into it now. Please contact us directly so that we can follow it up with you in person.",
  complained: (c) => `We are sorry to read what you say about ${c}, and we have shared your comments with the team.`,
  lowRating: "We are sorry that your visit did not live up to your expectations.",
  praised: (c) => `We are glad that you appreciated ${c}.`,
  closing: (critical) =>
    critical
      ? "We hope to have the chance to put this right."
      : "We would be happy to welcome you again and show you that we can do better.",
  signature: "Kind regards,\nThe team",
  category: (c) => CATEGORIES[c],
  list: joinWith("and"),
};
