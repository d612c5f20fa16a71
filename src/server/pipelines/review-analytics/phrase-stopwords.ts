/** Function words left out of top phrases (en, es, de), so phrases carry content ("cold food", "comida fría"). */
export const PHRASE_STOPWORDS: ReadonlySet<string> = new Set(
  (
    "the and was were are this that with for our very but not they our had have has been there here also just too then than " +
    "what when which who will would could should can did does you your their them its it's out all any one two more most some " +
    "los las del con para por una uno unos unas que muy pero fue era estaba eran son esta este esto nos nuestro nuestra " +
    "más mas también tambien como todo toda todos hay sin sus mucho mucha " +
    "der die das und war ist sehr aber nicht mit für wir unser unsere ein eine einen einem einer zum zur auch wieder hatten " +
    "haben wurde wurden den dem des sich noch nur dass war waren hier dort alle viel"
  ).split(/\s+/),
);
