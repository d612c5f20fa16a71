import { describe, expect, it } from "vitest";
import { BatchStatus, ExecutionStatus, JobStatus, ScheduleStatus } from "@/generated/prisma/enums";
import de from "@/i18n/messages/de.json";
import en from "@/i18n/messages/en.json";
import es from "@/i18n/messages/es.json";
import { STATUS_TONES, statusTone } from "./status";

// Every state the database can hold, and the ones pages add (stages, invites, scraper versions, members).
const STATES = [
  ...Object.values(JobStatus),
  ...Object.values(BatchStatus),
  ...Object.values(ScheduleStatus),
  ...Object.values(ExecutionStatus),
  "pending",
  "skipped",
  "valid",
  "expired",
  "revoked",
  "exhausted",
  "promoted",
  "deprecated",
];

describe("the one map of states to tones and words", () => {
  it("gives every state a tone and a word in every language", () => {
    for (const state of STATES) {
      expect(STATUS_TONES, state).toHaveProperty(state);
      for (const [locale, messages] of Object.entries({ en, es, de }))
        expect((messages.ui.status as Record<string, string>)[state], `${locale}: ${state}`).toBeTruthy();
    }
  });
  it("has a word in every language for every state it maps", () => {
    for (const state of Object.keys(STATUS_TONES))
      for (const messages of [en, es, de]) expect(messages.ui.status).toHaveProperty(state);
  });
  it("never colours a failure like a success", () => {
    expect(statusTone("failed")).toBe("danger");
    expect(statusTone("succeeded")).toBe("success");
    expect(statusTone("completed")).toBe("success");
    expect(statusTone("running")).toBe("info");
    expect(statusTone("something new")).toBe("neutral");
  });
});
