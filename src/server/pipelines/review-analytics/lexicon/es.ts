import type { LanguageLexicon } from "./types";

/**
 * Spanish domain vocabulary on top of the ML-SentiCon lexicon shipped with `@nlpjs/lang-es`: the
 * words and set phrases of restaurant and hotel reviews (Spain and Latin America), AFINN scale,
 * folded (no accents). Authored for this project.
 */
export const ES: LanguageLexicon = {
  words: {
    excelente: 4, increible: 4, espectacular: 4, "maravill*": 4, "perfect*": 4, buen: 2, bueno: 2, buena: 2, buenos: 2, buenas: 2,
    rico: 3, rica: 3, ricos: 3, ricas: 3, "delicios*": 4, "sabros*": 3, fresco: 2, fresca: 2, frescos: 2, "estupend*": 3, genial: 3, geniales: 3,
    agradable: 2, "acogedor*": 3, amable: 2, amables: 2, "atent*": 2, "simpatic*": 2, profesional: 2, "rapid*": 2, limpio: 2, limpia: 2,
    limpios: 2, limpias: 2, impecable: 3, impecables: 3, tranquilo: 1, tranquila: 1, "bonit*": 2, precioso: 3, preciosa: 3, preciosos: 3, preciosas: 3,
    recomiendo: 3, recomendable: 3, "recomendad*": 3, encanto: 2, encanta: 3, "encantador*": 3, volveremos: 3, repetiremos: 3, repetiria: 2,
    mejor: 3, mejores: 3, razonable: 2, economico: 2, "barat*": 1, "generos*": 2, "autentic*": 2, top: 3, brutal: 4, "chul*": 2, mola: 3,
    majo: 3, maja: 3, majos: 3, majas: 3, "cariños*": 3, "comod*": 2, "amplia*": 1, "amplio*": 1, luminoso: 1, "crujiente*": 1, "jugos*": 2,
    tierno: 2, tierna: 2, "casero*": 2, "casera*": 2, "exquisit*": 4, "sublime*": 4, "fantastic*": 4, "increibl*": 4, "impresionante*": 4,
    "descubrimiento": 3, "joya": 3, "crack": 3, "lujo": 2, "eficaces": 2, "eficaz": 2, "eficiente*": 2, "resolutiv*": 2, "correct*": 1,
    "gracias": 1, "agradecid*": 2, "encantad*": 3, "felicidades": 3, "enhorabuena": 3, "sorpresa": 1, "chevere": 3, "padrisimo*": 4,
    "deliciosamente": 4, "diez": 2, "wow": 3, "pasada": 3, "bien": 1, "divin*": 4, "variado": 1, "completo": 1, "ideal": 3,
    malo: -3, mala: -3, malos: -3, malas: -3, pesimo: -4, pesima: -4, horrible: -3, horribles: -3, terrible: -3, terribles: -3,
    "asquer*": -4, asco: -4, frio: -1, fria: -1, frios: -1, frias: -1, soso: -2, sosa: -2, sosos: -2, "quemad*": -2, crudo: -1, cruda: -1,
    salado: -1, "grasient*": -2, "maleducad*": -3, "groser*": -3, "antipatic*": -3, borde: -3, lento: -2, lenta: -2, lentos: -2, "desatent*": -2,
    "sucio*": -3, "sucia*": -3, suciedad: -3, mugre: -3, "cucaracha*": -4, enfermo: -3, intoxicacion: -4, "vomit*": -4,
    caro: -2, caros: -2, carisimo: -3, carisima: -3, "abusiv*": -3, estafa: -4, timo: -4, "ruidos*": -2, ruido: -2, "incomod*": -2,
    tardaron: -2, tardo: -2, retraso: -2, eterno: -2, eterna: -2, "decepci*": -3, mediocre: -2, peor: -3, inaceptable: -3,
    queja: -2, problema: -2, "error*": -2, "equivoc*": -2, evitar: -3, "caotic*": -2, "escas*": -2, lamentable: -4, "vergonzos*": -4,
    verguenza: -4, fatal: -4, desastre: -4, "recalentad*": -3, "congelad*": -2, seco: -2, seca: -2, "aguad*": -2, "pasad*": -1,
    "floj*": -2, "insipid*": -3, "sablazo*": -3, "desorbitad*": -3, "agobiante": -2, "minuscul*": -2, "pequenito": 0, "hundido": -2,
    "oscurisim*": -2, "cutre*": -3, "masificad*": -1, "desagradable*": -3, "incompetent*": -3, "inexistente": -3, "tristes": -2, "triste": -2,
    "arruinad*": -4, "lastima": -2, pena: -2, "indignant*": -4, "vergonzoso": -4, "irresponsab*": -4, "reclamacion": -2, "chapuza": -3,
    "normalit*": -1, mal: -3, "regular": -1, "pasable": -1, "justito": -1, "mejorable": -2, "grasa": -1, "rancio": -3, "podrido": -4,
  },
  idioms: {
    "de chuparse los dedos": 4, "para chuparse los dedos": 4, "para repetir": 3, "de lujo": 3, "una pasada": 3, "que pasada": 3,
    "de diez": 3, "de 10": 3, "de otro planeta": 4, "quitan el sentido": 4, "de muerte": 3, "sin duda": 1, "sin ninguna duda": 1,
    "merece la pena": 3, "vale la pena": 3, "lo vale": 2, "no tiene precio": 3, "calidad precio": 1, "se come de maravilla": 4, "de maravilla": 4,
    "volveremos sin duda": 4, "volveremos seguro": 4, "sin pegas": 3, "nada que objetar": 3, "no se puede pedir mas": 3, "que mas se puede pedir": 3,
    "muy recomendable": 4, "100 recomendable": 4, "un amor": 3, "un encanto": 3, "de lo mejor": 4, "lo mejor": 3, "un diez": 3,
    "ni fu ni fa": -1, "todo mal": -4, "nada de nada": -2, "ni idea": -2, "por ponerle una pega": 1, "de toda la vida": 2, "de vicio": 4, "para salir del paso": -1, "ni bien ni mal": 0, "ni mejor ni peor": 0, "sin mas": -1, "nada del otro mundo": -1, "nada especial": -1, "nada que destacar": -1,
    "no volveremos": -4, "no volvere": -4, "no volveria": -4, "nunca mas": -4, "no repetiremos": -4, "no lo recomiendo": -4, "no recomiendo": -4,
    "cero recomendable": -4, "nos clavaron": -4, "un timo": -4, "deja mucho que desear": -3, "dejaba mucho que desear": -3, "de risa": -2,
    "un desastre": -4, "hecho un asco": -4, "da asco": -4, "ni una disculpa": -3, "ni un perdon": -3, "sin disculpa*": -2, "pasan de ti": -3,
    "de malas maneras": -3, "tomadura de pelo": -4, "echaba para atras": -3, "tira para atras": -3, "se hace eterno": -3, "una eternidad": -3,
    "salimos con hambre": -3, "no merece la pena": -3, "no vale la pena": -3, "no esta nada mal": 2, "nada mal": 2, "no esta mal": 1,
    "cara dura": -3, "la cara": -1, "de bote": -2, "de bolsa": -2, "de microondas": -2, "no se entera": -2, "me mola": 3, "bien chevere": 3,
    "sin sabor": -2, "sin gracia": -2, "sin ganas": -2, "sin alma": -2, "sin gusto": -2, "todo re bien": 3, "re bien": 3, "sin prisas": 0, "le falta": -1, "le hace falta": -1, "da miedo": -3, "sin palabras": -2,
  },
  negators: ["no", "nunca", "jamas", "nada", "ni", "tampoco", "sin", "nadie", "ningun", "ninguna", "ninguno", "apenas", "cero"],
  intensity: {
    muy: 1.5, super: 1.5, realmente: 1.4, totalmente: 1.4, bastante: 1.2, demasiado: 1.3, tan: 1.4, extremadamente: 1.8, increiblemente: 1.7,
    absolutamente: 1.6, "re": 1.4, mas: 1.1, mucho: 1.3, muchisimo: 1.6, tremendamente: 1.7, especialmente: 1.2, sumamente: 1.7, verdaderamente: 1.4,
    poco: 0.6, pelin: 0.6, algo: 0.7, ligeramente: 0.5, medio: 0.7, casi: 0.6,
  },
  adversative: ["pero", "sin embargo", "eso si", "ahora bien", "en cambio", "lastima", "pena que", "salvo", "excepto", "lo malo", "el problema", "aun asi", "sino"],
  concessive: ["aunque", "a pesar de", "pese a"],
  lukewarm: [
    "ni fu ni fa", "normalit*", "sin mas", "correcto", "correcta", "correctos", "cumple", "cumplio", "cumplen", "nada que destacar", "ni bien ni mal",
    "ni mejor ni peor", "pasable", "aceptable", "del monton", "sin pena ni gloria", "lo tipico", "nada del otro mundo", "nada especial",
    "para salir del paso", "lo normal", "normal y corriente", "regular", "ni tan", "esta bien para", "lo justo", "ni frio ni calor", "tirando a normal",
  ],
};
