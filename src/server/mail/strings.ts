import type { Locale } from "@/i18n/routing";

/** The words of every mail, per locale: `{name}` placeholders are filled by templates.ts (escaped in HTML). */
export interface MailStrings {
  greeting: string;
  signature: string;
  ignore: string;
  linkHint: string;
  passwordReset: { subject: string; intro: string; action: string; validity: string };
  verifyEmail: { subject: string; intro: string; action: string; validity: string };
  changeEmail: { subject: string; intro: string; action: string; validity: string };
  emailChanged: { subject: string; intro: string; advice: string };
  signUpExisting: { subject: string; intro: string; advice: string; action: string };
  invite: { subject: string; intro: string; action: string; validity: string };
}

const en: MailStrings = {
  greeting: "Hello,",
  signature: "— {product}",
  ignore: "If you did not ask for this, you can ignore this message; nothing changes.",
  linkHint: "If the button does not work, copy this address into your browser:",
  passwordReset: {
    subject: "Reset your {product} password",
    intro: "Someone (we hope you) asked to set a new password for the {product} account of this address.",
    action: "Set a new password",
    validity: "The link works once, for 30 minutes. Using it signs the account out everywhere.",
  },
  verifyEmail: {
    subject: "Confirm your e-mail address for {product}",
    intro: "Please confirm that this address belongs to your {product} account.",
    action: "Confirm my address",
    validity: "The link works once, for 24 hours.",
  },
  changeEmail: {
    subject: "Confirm your new e-mail address for {product}",
    intro: "Your {product} account asked to use this address from now on. The change applies when you confirm it.",
    action: "Use this address",
    validity: "The link works once, for 24 hours.",
  },
  emailChanged: {
    subject: "The e-mail address of your {product} account was changed",
    intro: "Your {product} account now uses the address {email}; this address no longer signs in.",
    advice: "If you did not do this, contact your administrator at once.",
  },
  signUpExisting: {
    subject: "Someone tried to create a {product} account with your address",
    intro: "Someone tried to create a {product} account with this address, which already has one. Nothing was changed.",
    advice: "If it was you, sign in with your password, or set a new one:",
    action: "Reset my password",
  },
  invite: {
    subject: "{inviter} invites you to {mesh} on {product}",
    intro: "{inviter} invites you to join the mesh {mesh} on {product}.",
    action: "Open the invite",
    validity: "The invite is valid until {expires} (UTC).",
  },
};

const es: MailStrings = {
  greeting: "Hola:",
  signature: "— {product}",
  ignore: "Si no lo has pedido, puedes ignorar este mensaje; no cambia nada.",
  linkHint: "Si el botón no funciona, copia esta dirección en tu navegador:",
  passwordReset: {
    subject: "Restablece tu contraseña de {product}",
    intro: "Alguien (esperamos que tú) ha pedido una contraseña nueva para la cuenta de {product} de esta dirección.",
    action: "Elegir una contraseña nueva",
    validity: "El enlace funciona una vez, durante 30 minutos. Al usarlo se cierran todas las sesiones de la cuenta.",
  },
  verifyEmail: {
    subject: "Confirma tu dirección de correo en {product}",
    intro: "Confirma que esta dirección pertenece a tu cuenta de {product}.",
    action: "Confirmar mi dirección",
    validity: "El enlace funciona una vez, durante 24 horas.",
  },
  changeEmail: {
    subject: "Confirma tu nueva dirección de correo en {product}",
    intro:
      "Tu cuenta de {product} ha pedido usar esta dirección a partir de ahora. El cambio se aplica cuando lo confirmes.",
    action: "Usar esta dirección",
    validity: "El enlace funciona una vez, durante 24 horas.",
  },
  emailChanged: {
    subject: "Se ha cambiado la dirección de correo de tu cuenta de {product}",
    intro: "Tu cuenta de {product} usa ahora la dirección {email}; esta dirección ya no sirve para iniciar sesión.",
    advice: "Si no has sido tú, ponte en contacto con el administrador cuanto antes.",
  },
  signUpExisting: {
    subject: "Alguien ha intentado crear una cuenta de {product} con tu dirección",
    intro:
      "Alguien ha intentado crear una cuenta de {product} con esta dirección, que ya tiene una. No se ha cambiado nada.",
    advice: "Si has sido tú, inicia sesión con tu contraseña o elige una nueva:",
    action: "Restablecer mi contraseña",
  },
  invite: {
    subject: "{inviter} te invita a {mesh} en {product}",
    intro: "{inviter} te invita a unirte a la malla {mesh} en {product}.",
    action: "Abrir la invitación",
    validity: "La invitación es válida hasta el {expires} (UTC).",
  },
};

const de: MailStrings = {
  greeting: "Hallo,",
  signature: "— {product}",
  ignore: "Wenn du das nicht angefordert hast, kannst du diese Nachricht ignorieren; es ändert sich nichts.",
  linkHint: "Falls der Knopf nicht funktioniert, kopiere diese Adresse in deinen Browser:",
  passwordReset: {
    subject: "Setze dein {product}-Passwort zurück",
    intro: "Jemand (hoffentlich du) hat ein neues Passwort für das {product}-Konto dieser Adresse angefordert.",
    action: "Neues Passwort festlegen",
    validity: "Der Link funktioniert einmal, 30 Minuten lang. Er meldet das Konto überall ab.",
  },
  verifyEmail: {
    subject: "Bestätige deine E-Mail-Adresse für {product}",
    intro: "Bitte bestätige, dass diese Adresse zu deinem {product}-Konto gehört.",
    action: "Adresse bestätigen",
    validity: "Der Link funktioniert einmal, 24 Stunden lang.",
  },
  changeEmail: {
    subject: "Bestätige deine neue E-Mail-Adresse für {product}",
    intro: "Dein {product}-Konto möchte ab jetzt diese Adresse verwenden. Die Änderung gilt, sobald du sie bestätigst.",
    action: "Diese Adresse verwenden",
    validity: "Der Link funktioniert einmal, 24 Stunden lang.",
  },
  emailChanged: {
    subject: "Die E-Mail-Adresse deines {product}-Kontos wurde geändert",
    intro:
      "Dein {product}-Konto verwendet jetzt die Adresse {email}; mit dieser Adresse kann man sich nicht mehr anmelden.",
    advice: "Wenn du das nicht warst, wende dich sofort an deinen Administrator.",
  },
  signUpExisting: {
    subject: "Jemand wollte mit deiner Adresse ein {product}-Konto anlegen",
    intro:
      "Jemand wollte mit dieser Adresse ein {product}-Konto anlegen; sie hat schon eines. Es wurde nichts geändert.",
    advice: "Warst du es, melde dich mit deinem Passwort an oder lege ein neues fest:",
    action: "Passwort zurücksetzen",
  },
  invite: {
    subject: "{inviter} lädt dich zu {mesh} auf {product} ein",
    intro: "{inviter} lädt dich ein, dem Mesh {mesh} auf {product} beizutreten.",
    action: "Einladung öffnen",
    validity: "Die Einladung gilt bis {expires} (UTC).",
  },
};

export const MAIL_STRINGS: Record<Locale, MailStrings> = { en, es, de };
