"use client";

import { useTranslations } from "next-intl";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { mentionAt, mentionOptions, type MentionOption } from "./mentions";

const mentionText = (o: MentionOption) => `@${o.handle}`;

/** The text box ("Message") and "Send", with completion of `@name` and `@group` (a listbox under the box). */
export function Composer({
  people,
  groups,
  disabled,
  onSend,
}: {
  people: readonly string[];
  groups: readonly string[];
  disabled: boolean;
  onSend: (text: string) => Promise<boolean>;
}) {
  const t = useTranslations("chat");
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const [mention, setMention] = useState<{ start: number; options: MentionOption[] } | null>(null);
  const [chosen, setChosen] = useState(0);

  const lookAtCaret = (value: string, caret: number) => {
    const at = mentionAt(value, caret);
    const options = at ? mentionOptions(people, groups, at.query) : [];
    setMention(at && options.length > 0 ? { start: at.start, options } : null);
    setChosen(0);
  };

  const pick = (option: MentionOption) => {
    const el = box.current;
    if (!el || !mention) return;
    const caret = el.selectionStart;
    const next = `${text.slice(0, mention.start)}@${option.handle} ${text.slice(caret)}`;
    setText(next);
    setMention(null);
    const at = mention.start + option.handle.length + 2;
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(at, at);
    });
  };

  const send = async () => {
    const value = text.trim();
    if (!value || sending || disabled) return;
    setSending(true);
    setFailed(false);
    const ok = await onSend(value);
    setSending(false);
    if (ok) setText("");
    else setFailed(true);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mention) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setChosen((c) => (c + step + mention.options.length) % mention.options.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        const option = mention.options[chosen];
        if (option) {
          e.preventDefault();
          pick(option);
          return;
        }
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setMention(null);
        return;
      }
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const listId = `${id}-mentions`;
  return (
    <form
      className="chat-composer stack-sm"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label htmlFor={`${id}-text`}>{t("message")}</label>
      <textarea
        ref={box}
        id={`${id}-text`}
        rows={2}
        value={text}
        maxLength={16_000}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        aria-autocomplete="list"
        aria-controls={mention ? listId : undefined}
        aria-activedescendant={mention ? `${listId}-${chosen}` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          lookAtCaret(e.target.value, e.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setMention(null)}
      />
      {mention ? (
        <ul id={listId} role="listbox" aria-label={t("suggestions")} className="chat-mentions">
          {mention.options.map((o, i) => (
            <li
              key={`${o.kind}:${o.handle}`}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === chosen}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(o);
              }}
            >
              {mentionText(o)} <span className="muted">{t(o.kind === "group" ? "mentionGroup" : "mentionPerson")}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p id={`${id}-hint`} className="muted chat-hint">
        {t("composerHint")}
      </p>
      {failed ? (
        <p className="alert" role="alert">
          {t("sendFailed")}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="button" disabled={disabled || sending || text.trim() === ""}>
          {t("send")}
        </button>
      </div>
    </form>
  );
}
