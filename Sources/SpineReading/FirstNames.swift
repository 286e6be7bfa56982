/// Common given names (English, Spanish, Catalan, French, German, Italian), lowercased and unaccented.
/// A spine run of capitalised words is taken for an author only when it starts with one of these or with
/// initials: "Silent Spring" is capitalised like a name, "Rachel Carson" is a name.
enum FirstNames {
    static func contains(_ word: String) -> Bool {
        let w = word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(in: .punctuationCharacters)
        // "Jan-Philipp", "Jean-Paul": a double given name counts by its first part.
        return names.contains(w) || (w.contains("-") && names.contains(String(w.split(separator: "-")[0])))
    }

    static func isInitial(_ word: String) -> Bool {
        // "J.", "J.R.R.", "Ma."
        let letters = word.filter(\.isLetter)
        return word.hasSuffix(".") && (1...2).contains(letters.count) && letters.first?.isUppercase == true
    }

    private static let names: Set<String> = Set("""
        achim alexandra alois andreas angelika anke annette antje armin arne axel bastian bernd bettina birgit bodo brigitte \
        carsten christa christiane christine claudia cornelia dagmar detlef dieter dirk doris elke elfriede erika ernst \
        frank franziska frauke gabi gabriele gerd gerda gerhard gisela gudrun gunter hans hansjorg harald heike heiko helga \
        helmut herbert hildegard holger horst ilse ines inge ingeborg irmgard jens joachim jochen jorg josef jurgen jutta \
        karin karl-heinz katharina kathrin kerstin klaus kurt lothar lutz manfred margot marianne markus martina matthias \
        monika nina norbert olaf petra rainer regina reinhard renate rita rolf rudolf sabine sebastian siegfried silke \
        stefanie susanne sven thorsten tobias udo ulla ulrich ulrike ursula uta ute uwe volker walter werner wolfgang \
        agatha amanda barbara becky beverly brenda charlotte cheryl cindy colleen danielle deborah denise diane donna \
        eleanor ellen emma evelyn fiona frances gail gillian heather holly janet jean jennifer jessica jill joan joanne \
        joyce judy julie karen kathy kathleen kelly kim laurie linda lisa louise lynn margaret marilyn martha maureen \
        megan melissa michelle nancy nora pamela patricia paula penelope rachel rebecca rosamunde ruth sandra sharon \
        sophie stephanie susan tess tracy virginia wendy alastair alistair andy anthony arthur barry ben brandon bruce \
        cecil clive craig dale dean dennis derek donald doug duncan eddie eric frederick gary geoffrey gordon greg harlan \
        ian jack jeffrey jerry jim jimmy joe josh keith ken kenneth larry lee lewis malcolm martin matt mike neil nigel \
        patrick paul phil ralph randy richard rob rodney roy russell ryan sean simon stanley steve stuart ted terry \
        tony trevor vince wayne wilbur alexandre amelie anais aurelie benoit cecile christophe delphine didier emile \
        fabrice florence francoise frederic gilles guillaume helene herve isabelle jean-paul jerome julien laurent \
        lucie marcel mathieu maurice muriel nathalie olivier pascal patrice raymond romain sebastien stephane sylvie \
        thierry valerie veronique yves aaron abigail adele adolfo agnieszka ahmed aldous alessandro ali alice alma amy andre andrzej angus anita antoine arundhati astrid axel \
        barbara ben bill bob boris brian bram carl carlo carson catalina chimamanda chuck cixin clarice colin cynthia \
        dashiell denis diana dmitri don doris douglas elif elsa elvira emile erich erin ernst ethan fatima fyodor gabriel gianni gore \
        gunther haruki heinrich hector henning herta honore hunter ilya irvine isaac ismail italo ivo jamie jan janet jo joel jon jonas \
        jose-maria jostein julio jules junot kenzaburo kurt lars lemony leila liane lina lou luca ludwig marcela marguerite mariana \
        martha marcus max maxim mia mikhail milena muriel nathaniel nick nikolai norman octavia orson otto pat patti per philip \
        ralph ray reinhold rick rob roald ron rudyard rupert sally saul scott selma seth shirley siri stanislaw stieg sue sven \
        ted theodor thor toni tove truman ursula vasily vladimir wallace wendy yasunari yukio \
        aaron adam adrian agatha agnes agustin agusti alan albert alberto alejandro alex alexander alexandre alfonso alfred alfredo alice alicia \
        almudena alvaro amanda amelia amos ana andrea andres andreu andrew angel angela angeles angels anna anne annie anthony antoni antonio \
        antonia arnau arthur arturo ariadna beatriz benito benjamin bernard bernardo bertrand blanca bruno carles carlos carme carmen carol \
        carolina caterina catherine cecilia cesar charles charlotte christian christina christopher clara claude claudia colm cristina cormac \
        dan daniel daniela david dolors dolores domingo donna dorothy edgar eduard eduardo edward elena elias elisa elisabet elizabeth ella \
        eloy emili emilio emily emma enric enrique eric ernest ernesto esteban esther eugenio eva federico felipe felix fernando ferran \
        fiona francesc francesca francisco francois frank franz fred friedrich gabriel gabriela gabriele george georges gerard german \
        gemma gillian gloria gonzalo graham gustavo guillermo gunter hannah harold harper harry helen helena henri henry herman hermann \
        hilary hugo ian ignacio ignasi ines ingrid irene isaac isabel isabella isabelle italo ivan jack jacques jaime jaume james jane \
        javier jean jeff jennifer jesus jim joan joanna joaquin joaquim jodi joe johann john jonathan jordi jorge josep jose josefa joseph \
        juan juana judith julia julian julio karen karl kate katherine kazuo ken kevin laia laura lauren lawrence leo leon leonardo lev \
        lidia lluis llucia lorenzo louis louisa luis luisa lucas lucia luz manel manuel manuela marc marcel marcos margaret margarita \
        maria marian mariano marina mario marius mark marta martin mary mateo matthew maurice maya melanie merce mercedes michael michel \
        miguel mikel milan miquel miriam monica montserrat nadia natalia neil nicolas nicole nina noam nuria octavio olga oliver olivia \
        orhan oscar pablo paco pamela paolo pascual pasqual patricia patrick paul paula pau pedro pere peter philip philippe pierre pilar \
        rachel rafael rafel ramon raquel raul ray raymond rebecca ricard ricardo richard robert roberto rodrigo roger rosa rosario rosalia \
        roxane ruth salvador sam samuel sandra santiago sara sarah sebastian sergi sergio silvia simon sofia sonia stefan stephen steven \
        susan susana sylvia teresa terry thomas tim toni tom tomas umberto valentina vanessa vicente victor victoria virginia walter \
        wilhelm william xavier yolanda yuval zadie zoe
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
}
