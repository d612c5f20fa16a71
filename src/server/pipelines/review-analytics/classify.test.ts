// Issue 20, point 6: the misclassifications the issue lists, one by one, through the normalize and
// classify stages as the pipeline runs them (the route stage where the issue names a routing).
import { describe, expect, it } from "vitest";
import { classify } from "./classify";
import { normalize } from "./normalize";
import { route } from "./route";

function run(text: string, rating: number | null = 3, language: string | null = null) {
  const [r] = classify(normalize([{ id: "r", author: null, rating, text, language, publishedAt: null }]).output).output;
  if (!r) throw new Error("no review");
  return {
    ...r,
    categories: [...new Set(r.mentions.map((m) => m.category))].sort(),
    teams: route([r]).output.issues.map((i) => i.team),
  };
}

describe("sentiment as reviews are written", () => {
  it("reads sarcasm and contrast", () => {
    expect(run("Oh great, another 45 minutes just to get the bill.").label).toBe("negative");
    expect(run("Na super, 40 Minuten auf die Rechnung gewartet.").label).toBe("negative");
    const mixed = run("The food was great but the service was painfully slow.");
    expect(mixed.label).toBe("mixed");
    expect(mixed.mentions.map((m) => [m.category, m.polarity])).toEqual([
      ["food", "positive"],
      ["service", "negative"],
      ["waiting_time", "negative"],
    ]);
  });

  it("negates with contractions, sin and kein, and takes 'sin duda' as emphasis", () => {
    expect(run("I wouldn't recommend it.").label).toBe("negative");
    // With three stars the learned label model reads this weak line as lukewarm (3-star reviews are
    // average or mixed in 97% of the labelled ones); the negation is what matters: never positive.
    expect(run("Can't say the food was good.", null).label).toBe("negative");
    expect(run("Can't say the food was good.").label).not.toBe("positive");
    expect(run("dont think it was worth it at all").label).toBe("negative");
    expect(run("La comida sin sabor y el camarero sin ganas.").label).toBe("negative");
    expect(run("Kein guter Service, kein gutes Essen.").label).toBe("negative");
    expect(run("El mejor ramen de la ciudad, sin duda.").label).toBe("positive");
    expect(run("Volveremos sin duda!").label).toBe("positive");
  });

  it("scores 'nothing terrible' as lukewarm, not strongly positive", () => {
    const r = run("Nothing terrible.");
    expect(r.label).toBe("neutral");
    expect(Math.abs(r.sentiment)).toBeLessThan(1);
  });

  it("takes the stars as evidence when the text says little", () => {
    expect(run("Came here after the football.", 5).label).toBe("positive");
    expect(run("Came here after the football.", 1).label).toBe("negative");
    expect(run("Came here after the football.", 3).label).toBe("neutral");
  });

  it("takes an average verdict as neutral whatever the stars, unless the text holds a strong opinion", () => {
    expect(run("Nothing special, does the job.", 5).label).toBe("neutral");
    expect(run("Nada del otro mundo, la verdad. Cumple.", 5).label).toBe("neutral");
    expect(run("Kann man machen, nichts Besonderes.", 1).label).toBe("neutral");
    expect(
      run("Nothing special about the decor, but the food was absolutely outstanding and the staff were wonderful!", 5)
        .label,
    ).toBe("positive");
  });
});

describe("categories with word-sense guards", () => {
  it("'Can't wait to come back!' is praise, not a waiting-time complaint routed to operations", () => {
    const r = run("Can't wait to come back!", 5);
    expect(r.label).toBe("positive");
    expect(r.categories).not.toContain("waiting_time");
    expect(r.teams).not.toContain("operations");
  });

  it("'preciosa' is beauty, not price; 'precios' is price", () => {
    expect(run("La terraza es preciosa.", 5).categories).toEqual(["ambience"]);
    expect(run("Los precios son altísimos.", 2).categories).toEqual(["price"]);
  });

  it("an amount of money is about price", () => {
    expect(run("£18 for a burger.", 2).categories).toEqual(["food", "price"]);
  });
});

describe("critical by concept, in many phrasings", () => {
  it.each([
    ["Pasé toda la noche vomitando después de cenar aquí.", "es", "illness"],
    ["Half our party had the trots the next morning. Coincidence? I think not.", "en", "illness"],
    ["Let's just say the seafood platter did not stay down.", "en", "illness"],
    ["Die Muscheln waren nicht frisch, ich hatte danach drei Tage Probleme.", "de", "illness"],
    ["Woke up covered in red bites, the mattress had little black spots along the seams.", "en", "vermin"],
    ["In der Suppe schwamm eine Fliege.", "de", "vermin"],
    ["There was a thumbtack in my sandwich.", "en", "foreign_object"],
    ["En mi plato había una uña. Una uña.", "es", "foreign_object"],
    ["El huevo olía a azufre y la yema estaba gris.", "es", "hygiene"],
    [
      "La cocina se veía desde la barra y daba asco: grasa, restos de comida en el suelo y un gato paseando.",
      "es",
      "hygiene",
    ],
    ["Staff member sneezed right over the open salad bar.", "en", "hygiene"],
    ["Me dio un ataque de alergia por los frutos secos que no nos avisaron.", "es", "allergy"],
    ["The stair carpet was loose and my mum tripped and fell down half a flight.", "en", "injury"],
    ["Al tocar el grifo de la ducha me dio la corriente.", "es", "injury"],
    // A guard's word that denies nothing: emphasis, sarcasm, disbelief.
    ["No exaggeration: mouse droppings on the windowsill next to the buffet.", "en", "vermin"],
    ["If you like food poisoning, this is your place.", "en", "illness"],
    ["I wouldn't have believed it if I hadn't seen the rat myself.", "en", "vermin"],
    ["Nunca había visto una cucaracha tan grande, y encima en el plato.", "es", "vermin"],
    ["Spent the whole of Sunday glued to the toilet after their brunch.", "en", "illness"],
    ["Both kids were throwing up by bedtime.", "en", "illness"],
    ["Die ganze Nacht über der Kloschüssel gehangen.", "de", "illness"],
    ["Watched a mouse run along the skirting board behind the bar.", "en", "vermin"],
    ["Vimos un ratón correr por el comedor.", "es", "vermin"],
    ["Woke up covered in bites, bed bugs in the mattress seams.", "en", "vermin"],
    ["Bettwanzen im Zimmer, lauter Stiche an den Armen.", "de", "vermin"],
    ["Found a long hair in my pasta.", "en", "foreign_object"],
    ["Un trozo de cristal en el puré.", "es", "foreign_object"],
    ["From our table we could see the kitchen was filthy, grease dripping everywhere.", "en", "hygiene"],
    ["Hähnchen innen noch roh.", "de", "hygiene"],
    ["Told them about my nut allergy and the dessert had hazelnuts; I had to use my EpiPen.", "en", "allergy"],
    // Pairs of words near each other: a thing and what was wrong with it.
    ["The pork belly was still rosy and wet in the centre.", "en", "hygiene"],
    ["Something with a tail shot across the floor under the radiator.", "en", "vermin"],
    ["Al día siguiente mi pareja no salió del baño.", "es", "illness"],
    ["Se nos cayó encima un trozo de escayola del techo.", "es", "injury"],
    ["Die Spieße waren innen glasig, das Hähnchen kaum warm.", "de", "hygiene"],
    ["Laken mit gelben Rändern und fremden Haaren.", "de", "hygiene"],
    // The allergy in one sentence, what happened in another.
    [
      "Ich bin allergisch gegen Sesam, das stand sogar auf der Bestellung. Zehn Minuten später war mein Gesicht geschwollen.",
      "de",
      "allergy",
    ],
  ] as const)("%s → %s", (text, language, hazard) => {
    const r = run(text, 1);
    expect(r.language).toBe(language);
    expect(r.critical).toBe(true);
    expect(r.hazards).toContain(hazard);
  });

  it.each([
    "Luckily nobody got sick but we won't be back.",
    "No bed bugs, unlike the last place we stayed!",
    "I was a bit scared I'd get food poisoning from a market stall but it was fine.",
    "Tenía miedo de pillar algo con el sushi, pero todo fresquísimo.",
    "Zum Glück ist keiner krank geworden, aber lecker war es nicht.",
    "The table was a bit sticky and the bin was full.",
    "Sticky toffee pudding so good it should be illegal.",
    "The chicken was perfectly cooked, not a hint of pink anywhere.",
    "The bugs in the booking website nearly cost us the table, but dinner was lovely.",
    "My sides hurt from laughing all night, what a crew.",
    "Leí reseñas que hablaban de ratas, pero no vimos nada raro.",
    "Man muss schon das Haar in der Suppe suchen, um hier etwas zu bemängeln.",
    "Ich könnte kotzen, wie lange man hier wartet. Essen aber gut.",
    "The stand-up night had us in stitches.",
    "Hay que pedir la cucaracha, el chupito que te prenden fuego en la mesa.",
    "Ohne Reservierung, und trotzdem saßen wir nach fünf Minuten am Fenster mit den Fliegenfischern auf dem See.",
  ])("not critical: %s", (text) => {
    expect(run(text).critical).toBe(false);
  });
});

describe("a hazard names its category", () => {
  it.each([
    ["The fire exit at the back was padlocked and blocked with crates on a packed night.", "cleanliness"],
    ["La barandilla del balcón se movía, y con dos niños.", "cleanliness"],
    ["Beim Einstecken vom Stecker gab es einen Schlag, die Steckdose wackelte in der Wand.", "cleanliness"],
    ["My son pulled a long strip of clear plastic out of his mouth.", "food"],
  ])("critical and about %s -> %s", (text, category) => {
    const r = run(text, 2);
    expect(r.critical).toBe(true);
    expect(r.mentions.map((m) => m.category)).toContain(category);
  });

  it("a hazard's minutes, beds and bathrooms are not waiting time, ambience or cleanliness; what the staff said is service", () => {
    const allergy = run(
      "The waiter said the sauce had no dairy, and 20 minutes later I had an allergic reaction to the cream in it.",
      1,
    );
    expect(allergy.critical).toBe(true);
    expect(new Set(allergy.mentions.map((m) => m.category))).toEqual(new Set(["food", "service"]));
    const bites = run(
      "Woke up with itchy bites in a line along my arm, and tiny dark specks along the mattress seam.",
      1,
    );
    expect(bites.mentions.map((m) => m.category)).not.toContain("ambience");
    const night = run("I spent the whole night in the bathroom after the mussels.", 1);
    expect(night.critical).toBe(true);
    expect(night.mentions.map((m) => m.category)).not.toContain("cleanliness");
  });

  it("an idiom with a hazard's words is neither critical nor a category of its own", () => {
    const r = run("The stand-up night had us in stitches, great crowd.", 5);
    expect(r.critical).toBe(false);
    expect(r.mentions.map((m) => m.category)).not.toContain("cleanliness");
  });
});

describe("language", () => {
  it("detects German 'Was will man mehr?' as German, and praise", () => {
    const r = run("Super Essen, nette Leute. Was will man mehr?", 5);
    expect(r.language).toBe("de");
    expect(r.label).toBe("positive");
  });

  it("lets the platform's hint decide a close call", () => {
    expect(run("Top", 5, "de").language).toBe("de");
    expect(run("Top", 5, "en").language).toBe("en");
  });
});
