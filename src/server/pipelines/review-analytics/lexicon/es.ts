/**
 * Spanish sentiment lexicon, AFINN-style (-5..+5), authored for this project on the AFINN-111 scale
 * (see docs/pipelines.md, "Sentiment"). Gendered and plural forms are listed or matched by stem (*).
 */
export const ES_LEXICON: Record<string, number> = {
  excelente: 4, "increíble": 4, increible: 4, espectacular: 4, maravilloso: 4, maravillosa: 4, perfecto: 4, perfecta: 4,
  buen: 2, bueno: 2, buena: 2, buenos: 2, buenas: 2, "riquísimo": 4, riquisimo: 4, rico: 3, rica: 3, delicioso: 4, deliciosa: 4,
  sabroso: 3, sabrosa: 3, fresco: 2, fresca: 2, "estupendo": 3, estupenda: 3, genial: 3, agradable: 2, acogedor: 2, acogedora: 2,
  amable: 2, amables: 2, atento: 2, atenta: 2, atentos: 2, simpático: 2, "simpática": 2, profesional: 2, "rápido": 2, rapido: 2, "rápida": 2,
  limpio: 2, limpia: 2, impecable: 3, tranquilo: 1, tranquila: 1, bonito: 2, bonita: 2, precioso: 3, preciosa: 3,
  recomiendo: 2, recomendable: 2, encantó: 3, encanto: 2, "volveremos": 2, volver: 1, mejor: 3,
  razonable: 2, "económico": 2, economico: 2, barato: 1, "generosa": 2, generoso: 2, "auténtico": 2, autentico: 2,
  malo: -3, mala: -3, malos: -3, "pésimo": -4, pesimo: -4, "pésima": -4, horrible: -3, terrible: -3, "asqueroso": -4, asquerosa: -4,
  "frío": -1, frio: -1, fria: -1, "fría": -1, soso: -2, sosa: -2, quemado: -2, quemada: -2, crudo: -1, cruda: -1, salado: -1, grasiento: -2,
  maleducado: -3, maleducada: -3, grosero: -3, grosera: -3, antipático: -2, "antipática": -2, lento: -2, lenta: -2, lentos: -2, desatento: -2,
  sucio: -3, sucia: -3, sucios: -3, suciedad: -3, mugre: -3, olor: -1, "cucaracha": -4, cucarachas: -4, pelo: -1, enfermo: -3, "intoxicación": -4,
  caro: -2, cara: -1, caros: -2, "carísimo": -3, abusivo: -3, "estafa": -3, ruidoso: -2, ruidosa: -2, ruido: -2, "incómodo": -2, incomodo: -2,
  esperamos: -1, espera: -1, esperar: -1, tardaron: -2, "tardó": -2, tarde: -1, retraso: -2, eterno: -2, eterna: -2,
  "decepción": -2, decepcionante: -2, decepcionado: -2, decepcionados: -2, mediocre: -1, peor: -3, nunca: -1, inaceptable: -3,
  queja: -2, problema: -2, error: -2, equivocado: -2, "equivocó": -2, evitar: -2, "caótico": -2, pequeño: -1, escaso: -2, escasa: -2,
};

export const ES_NEGATORS = new Set(["no", "nunca", "jamás", "jamas", "nada", "ni", "tampoco", "sin"]);
export const ES_BOOSTERS = new Set(["muy", "super", "súper", "realmente", "totalmente", "bastante", "demasiado", "tan", "extremadamente"]);
